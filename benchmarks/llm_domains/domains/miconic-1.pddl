(define (domain miconic)
  (:requirements :typing)
  (:types floor passenger)
  (:predicates
    (origin ?person - passenger ?floor - floor)
    (destin ?person - passenger ?floor - floor)
    (is-above ?floor1 - floor ?floor2 - floor)
    (boarded ?person - passenger)
    (served ?person - passenger)
    (lift_at ?floor - floor)
  )

  ; board: changes the state as described in the text
  (:action board
    :parameters (?f - floor ?p - passenger)
    :precondition (and
      (lift_at ?f)
      (origin ?p ?f)
    )
    :effect (boarded ?p)
  )

  ; depart: the agent performs this step of the procedure
  (:action depart
    :parameters (?f - floor ?p - passenger)
    :precondition (and
      (lift_at ?f)
      (destin ?p ?f)
      (boarded ?p)
    )
    :effect (and
      (not (boarded ?p))
      (served ?p)
    )
  )

  ; up: the agent performs this step of the procedure
  (:action up
    :parameters (?f1 - floor ?f2 - floor)
    :precondition (and
      (lift_at ?f1)
      (is-above ?f1 ?f2)
    )
    :effect (and
      (lift_at ?f2)
      (not (lift_at ?f1))
    )
  )

  ; down: the agent performs this step of the procedure
  (:action down
    :parameters (?f1 - floor ?f2 - floor)
    :precondition (and
      (lift_at ?f1)
      (is-above ?f2 ?f1)
    )
    :effect (and
      (lift_at ?f2)
      (not (lift_at ?f1))
    )
  )
)
