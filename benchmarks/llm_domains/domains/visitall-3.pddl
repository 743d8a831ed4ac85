(define (domain grid-visit-all)
    (:requirements :typing :strips)
    (:types place)
    (:predicates
        (connected ?x - place ?y - place)
        (at_robot ?x - place)
        (is-visited ?x - place)
    )

    (:action move
        :parameters (?curpos - place ?nextpos - place)
        :preconditions (and
            (at_robot ?curpos)
            (connected ?curpos ?nextpos)
        )
        :effect (and
            (at_robot ?nextpos)
            (not (at_robot ?curpos))
            (is-visited ?nextpos)
        )
    )
)
