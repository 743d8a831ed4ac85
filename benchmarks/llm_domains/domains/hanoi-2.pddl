Here is the PDDL domain for the task described above.

(define (domain hanoi)
  (:requirements :strips :typing)
  (:types disc table - platform)
  (:predicates
    (clear ?x - platform)
    (on ?x - disc ?y - platform)
    (smaller ?x - platform ?y - disc)
  )

  ; move: preconditions must hold before the step
  (:action move
    :parameters (?disc - disc ?from - platform ?to - platform)
    :precondition (and
      (smaller ?to ?disc)
      (on ?disc ?source)
      (clear ?disc)
      (clear ?to)
      (on ?disc ?to)
    )
    :effect (and
      (clear ?from)
      (on ?disc ?to)
      (not (on ?disc ?from))
      (not (clear ?to))
    )
  )
)
