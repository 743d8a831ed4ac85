```pddl
(define (domain ferry)
  (:requirements :typing)
  (:types car location)
  (:predicates
    (noteq ?x - location ?y - location)
    (at_ferry ?l - location)
    (at ?c - car ?l - location)
    (empty_ferry)
    (on ?c - car)
  )

  ; sail location: preconditions must hold before the step
  (:action sail-location
    :parameters (?from - location ?to - location)
    :precondition (and
      (noteq ?from ?to)
      (at_ferry ?from)
    )
    :effect (and
      (at_ferry ?to)
      (not (at_ferry ?source))
    )
  )

  ; board: preconditions must hold before the step
  (:action board
    :parameters (?car - car ?loc- location)
    :precondition (and
      (at ?car ?loc)
      (at_ferry ?loc)
      (empty_ferry)
      (on ?car)
    )
    :effect (and
      (on ?car)
      (not (at ?car ?loc))
    )
  )

  ; debark: changes the state as described in the text
  (:action debark
    :parameters (?car - car ?loc - location)
    :precondition (and
      (on ?car)
      (at_ferry ?loc)
    )
    :effect (and
      (at ?car ?loc)
      (empty_ferry)
      (not (on ?car))
    )
  )
)
```
