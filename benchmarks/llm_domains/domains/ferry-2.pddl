(define (domain ferry)
    (:types car location)
    (:predicates
        (noteq ?x - location ?y - location)
        (at_ferry ?l - location)
        (at ?c - car ?l - location)
        (empty_ferry)
        (on ?c - car)
    )

    ; sail: changes the state as described in the text
    (:action sail
        :parameters (?from - location ?to - location)
        :precondition (and (at_ferry ?from))
        :effect (and
            (at_ferry ?to)
            (not (at_ferry ?from))
        )
    )

    ; board car: changes the state as described in the text
    (:action board-car
        :parameters (?car - car ?loc - location)
        :precondition (and
            (at ?car ?loc)
            (at_ferry ?loc)
            (empty_ferry)
        )
        :effect (and
            (on ?car)
            (not (at ?car ?loc))
            (not (empty_ferry))
            (not (= ?car ?loc))
        )
    )

    ; debark: changes the state as described in the text
    (:action debark
        :parameters (?car - car ?loc - location)
        :precondition (and
            (on ?car)
            (at_ferry ?loc)
            (noteq ?loc ?loc)
        )
        :effect (and
            (at ?car ?loc)
            (empty_ferry)
            (not (on ?car))
        )
    )
)
