(define (domain miconic)
    (:types floor passenger)
    (:predicates
        (origin ?person - passenger ?floor - floor)
        (destin ?person - passenger ?floor - floor)
        (above ?floor1 - floor ?floor2 - floor)
        (boarded ?person - passenger)
        (served ?person - passenger)
        (lift_at ?floor - floor)
    )

    ; board: the agent performs this step of the procedure
    (:action board
        :parameters (?f - floor ?p - passenger)
        :precondition (and
            (lift_at ?f)
            (origin ?p ?f)
        )
        :effect (boarded ?p)
    )

    ; depart floor: preconditions must hold before the step
    (:action depart-floor
        :parameters (?f - floor ?p - passenger)
        :precondition (and
            (lift_at ?f)
            (destin ?p ?f)
            (boarded ?p)
        )
        :effect (and (has-served ?p))
    )

    ; up: the agent performs this step of the procedure
    (:action up
        :parameters (?f1 - floor ?f2 - floor)
        :precondition (and
            (lift_at f1)
            (above ?f1 ?f2)
        )
        :effect (and
            (lift_at ?f2)
            (not (lift_at ?f1))
        )
    )

    ; down floor: preconditions must hold before the step
    (:action down-floor
        :parameters (?f1 - level ?f2 - floor)
        :precondition (and
            (lift_at ?f1)
            (above ?f2 ?f1)
        )
        :effect (and
            (lift_at ?f2)
            (not (lift_at ?f1))
        )
    )
)
