(define (domain floor_tile)
  (:requirements :typing)
  (:types robot tile color)
  (:predicates
    (agent-at ?r - robot ?x - tile)
    (up ?x - tile ?y - tile)
    (down ?x - tile ?y - tile)
    (right ?x - tile ?y - tile)
    (left ?x - tile ?y - tile)
    (clear ?x - tile)
    (painted ?x - tile ?c - color)
    (robot_has ?r - robot ?c - color)
    (available_color ?c - color)
    (free_color ?r - robot)
  )

  (:action change_color
    :parameters (?r - robot ?c - color ?c2 - color)
    :precondition (and
      (robot_has ?r ?c)
      (available_color ?c2)
    )
    :effect (and
      (not (robot_has ?r ?c))
      (robot_has ?r ?c2)
    )
  )

  (:action paint_up
    :parameters (?r - robot ?y - tile ?x - tile ?c - color)
    :precondition (and
      (robot_has ?r ?c)
      (agent-at ?r ?x)
      (up ?y ?x)
      (clear ?y)
    )
    :effect (and
      (not (clear ?y))
      (painted ?y ?c)
    )
  )

  (:action paint_down
    :parameters (?r - robot ?y - tile ?x - tile ?c - color)
    :precondition (and
      (robot_has ?r ?c)
      (agent-at ?r ?x)
      (down ?y ?x)
      (clear ?y)
    )
    :effect (and
      (not (clear ?y))
      (painted ?y ?c)
    )
  )

  (:action move-up-robot
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and
      (agent-at ?r ?x)
      (up ?y ?x)
      (clear ?y)
    )
    :effect (and
      (agent-at ?r ?y)
      (not (agent-at ?r ?x))
      (clear ?x)
      (not (clear ?y))
    )
  )

  (:action move_down
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and
      (agent-at ?r ?x)
      (down ?y ?x)
      (clear ?y)
    )
    :effect (and
      (agent-at ?r ?y)
      (not (agent-at ?r ?x))
      (clear ?x)
      (not (clear ?y))
    )
  )

  (:action move-right-robot
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and
      (agent-at ?r ?x)
      (right ?y ?x)
      (clear ?y)
    )
    :effect (and
      (agent-at ?r ?y)
      (not (agent-at ?r ?x))
      (clear ?x)
      (not (clear ?y))
    )
  )

  (:action move_left
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and
      (agent-at ?r ?x)
      (left ?y ?x)
      (clear ?y)
    )
    :effect (and
      (agent-at ?r ?y)
      (not (agent-at ?r ?x))
      (clear ?x)
      (not (clear ?y))
    )
  )
)
