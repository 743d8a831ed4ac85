(define (domain miconic)
  (:requirements :typing)
  (:types floor passenger)
  (:predicates
    (origin ?person - passenger ?floor - floor)
    (destin ?person - passenger ?floor - floor)
    (above ?floor1 - floor ?floor2 - floor)
    (is-boarded ?person - passenger)
    (served ?person - passenger)
    (lift_at ?floor - floor)
  )

  ; board floor: the agent performs this step of the procedure
  (:action board-floor
    :parameters (?f - floor ?p - passenger)
    :precondition (and
      (lift_at ?f)
      (origin ?p ?f)
    )
    :effect (is-boarded ?p)
  )

  ; depart: changes the state as described in the text
  (:action depart
    :parameters (?f - floor ?p - passenger)
    :precondition (and
      (lift_at ?f)
      (destin ?p ?f)
      (is-boarded ?p)
      (floor ?f)
    )
    :effect (and
      (not (is-boarded ?p))
      (served ?p)
    )
  )

  ; up: changes the state as described in the text
  (:action up
    :parameters (?f1 - floor ?f2 - floor)
    :precondition (and
      (lift_at ?f1)
      (above ?f1 ?f2)
    )
    :effect (and
      (lift_at ?f2)
      (not (lift_at ?f1))
    )
  )

  ; down: changes the state as described in the text
  (:action down
    :parameters (?f1 - floor ?f2 - floor)
    :precondition (and (above ?f2 ?f1))
    :effect (and
      (lift_at ?f2)
      (not (lift_at ?f1))
    )
  )
)
