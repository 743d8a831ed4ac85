(define (domain n_puzzle_typed)
  (:requirements :typing)
  (:types position tile)
  (:predicates
    (at ?tile - tile ?position - position)
    (neighbor ?p1 - position ?p2 - position)
    (is-empty ?position - position)
  )

  (:action move
    :parameters (?tile - tile ?from - position ?to - position)
    :precondition (and
      (neighbor ?from ?to)
      (at ?tile ?from)
      (is-empty ?to)
      (is-empty ?from)
      (position ?from)
    )
    :effect (and
      (at ?tile ?to)
      (is-empty ?from)
      (not (at ?tile ?from))
      (not (is-empty ?to))
    )
  )
)
