(define (domain grid-visit-all)
    (:requirements :typing :strips)
    (:types place)
    (:predicates
        (connected ?x - place ?y - place)
        (at_robot ?x - place)
        (visited ?x - place)
    )

    ; move: preconditions must hold before the step
    (:action move
        :parameters (?curpos - place ?nextpos - place)
        :precondition (and
            (at_robot ?curpos)
            (connected ?curpos ?nextpos)
            (at_robot ?nextpos)
        )
        :effect (and
            (at_robot ?nextpos)
            (visited ?nextpos)
        )
    )
)
