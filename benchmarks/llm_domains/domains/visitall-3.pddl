(define (domain grid-visit-all)
    (:requirements :typing :strips)
    (:types place)
    (:predicates
        (connected ?x - place ?y - place)
        (at_robot ?x - place)
        (visited ?x - place)
    )

    (:action move
        :parameters (?curpos - place ?nextpos - place)
        :precondition (and
            (at_robot ?curpos)
            (connected ?curpos nextpos)
            (visited ?curpos)
        )
        :effect (and
            (at_robot ?nextpos)
            (not (at_robot ?curpos))
            (visited ?nextpos)
        )
    )
)
