(define (domain blocksworld)
  (:types block)
  (:predicates
    (is-on ?x - block ?y - block)
    (ontable ?x - block)
    (clear ?x - block)
    (handempty)
    (holding ?x - block)
  )

  ; pick up: preconditions must hold before the step
  (:action pick_up
    :parameters (?x - block)
    :precondition (and
      (clear ?x)
      (ontable ?x)
      (handempty)
    )
    :effect (and
      (not (ontable ?x))
      (not (clear ?x))
      (not (handempty))
      (holding ?x)
    )
  )

  ; put down block: changes the state as described in the text
  (:action put-down-block
    :parameters (?x - block)
    :precondition (holding ?x)
    :effect (and
      (not (holding ?x))
      (clear ?x1)
      (handempty)
      (ontable ?x)
    )
  )

  ; stack: changes the state as described in the text
  (:action stack
    :parameters (?x - block ?y - block)
    :precondition (and
      (holding ?x)
      (clear ?y)
    )
    :effect (and
      (not (holding ?x))
      (not (clear ?y))
      (clear ?x)
      (handempty)
      (is-on ?x ?y)
    )
  )

  ; unstack: the agent performs this step of the procedure
  (:action unstack
    :parameters (?x - block ?y - block)
    :precondition (and
      (is-on ?x ?y)
      (handempty)
    )
    :effect (and
      (holding ?x)
      (clear ?y)
      (not (clear ?x))
      (not (is-on ?x ?y))
    )
  )
)
