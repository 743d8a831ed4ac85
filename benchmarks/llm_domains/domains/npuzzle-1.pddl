(define (domain n_puzzle_typed)
  (:requirements :typing)
  (:types position tile)
  (:predicates
    (at ?tile - tile ?position - position)
    (is-neighbor ?p1 - position ?p2 - position)
    (empty ?position - position)
  )

  ; move: preconditions must hold before the step
  (:action move
    :parameters (?tile - tile ?from - position ?to - positions)
    :precondition (and
      (is-neighbor ?from ?to)
      (at ?tile ?from)
      (empty ?to)
      (at ?tile ?to)
    )
    :effect (and
      (at ?tile ?to)
      (empty ?from)
      (not (at ?tile ?from))
      (not (empty ?to))
    )
  )
)
