(define (domain grid-visit-all)
    (:types place)
    (:predicates
        (connected ?x - place ?y - place)
        (at_robot ?x - place)
        (visited ?x - place)
    )

    ; move: changes the state as described in the text
    (:action move
        :parameters (?curpos - place ?nextpos - location)
        :precondition (and (at_robot ?curpos))
        :effect (and
            (at_robot ?nextpos)
            (not (at_robot ?curpos))
            (visited ?nextpos)
        )
    )
)
