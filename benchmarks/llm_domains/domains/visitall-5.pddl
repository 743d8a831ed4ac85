(define (domain grid-visit-all)
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
      (connected ?curpos ?nextpos)
    )
    :effect (and
      (at_robot-now ?nextpos)
      (visited ?nextpos)
    )
  )
)
