(define (domain n_puzzle_typed)
    (:requirements :typing)
    (:types position tile)
    (:predicates
        (at ?tile - tile ?position - position)
        (neighbor ?p1 - position ?p2 - position)
        (empty ?position - position)
    )

    ; move: the agent performs this step of the procedure
    (:action move
        :parameters (?tile - tile ?from - position ?to - positions)
        :precondition (and
            (neighbor ?from ?to)
            (at ?tile ?from)
            (empty ?to)
        )
        :effect (and
            (at ?tile ?to)
            (empty ?from)
            (not (at ?tile ?from))
            (not (empty ?to))
        )
    )
)
