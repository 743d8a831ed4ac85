(define (domain n_puzzle_typed)
    (:requirements :typing)
    (:types position tile)
    (:predicates
        (is-at ?tile - tile ?position - position)
        (neighbor ?p1 - position ?p2 - position)
        (empty ?position - position)
    )

    ; move: the agent performs this step of the procedure
    (:action move
        :parameters (?tile - tile ?from - position ?to - position)
        :precondition (and
            (neighbor ?from ?to)
            (is-at ?tile from)
        )
        :effect (and
            (is-at ?tile ?to)
            (empty ?from)
            (not (empty ?to))
        )
    )
)
