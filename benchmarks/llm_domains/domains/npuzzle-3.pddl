(define (domain n_puzzle_typed)
    (:requirements :typing)
    (:types position tile)
    (:predicates
        (at ?tile - tile ?position - position)
        (is-neighbor ?p1 - position ?p2 - position)
        (empty ?position - position)
    )

    (:action move
        :parameters (?tile - tile ?from - position ?to - position)
        :precondition (and
            (is-neighbor ?from ?to)
            (at ?tile ?from)
            (empty ?to)
            (empty ?from)
        )
        :effect (and
            (at ?tile ?to)
            (empty ?from)
            (not (at ?tile ?from))
            (not (empty ?to))
        )
    )
)
