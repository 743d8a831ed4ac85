(define (domain zeno_travel)
  (:requirements :typing)
  (:types aircraft person - either_aircraft_person either_aircraft_person city flevel)
  (:predicates
    (at ?x - either_aircraft_person ?c - city)
    (in ?p - person ?a - aircraft)
    (fuel_level ?a - aircraft ?l - flevel)
    (next ?l1 - flevel ?l2 - flevel)
  )

  ; board: changes the state as described in the text
  (:action board
    :parameters (?p - person ?a - aircraft ?c - city)
    :precondition (and
      (at ?p ?c)
      (at ?a ?c)
    )
    :effect (and
      (not (at ?p ?c))
      (in ?p ?a)
    )
  )

  ; debark: changes the state as described in the text
  (:action debark
    :parameters (?p - person ?a - aircraft ?c - city)
    :precondition (and
      (in ?p ?a)
      (at ?a ?c)
    )
    :effect (and
      (not (in ?p ?a))
      (at ?p ?c)
    )
  )

  ; fly: preconditions must hold before the step
  (:action fly
    :parameters (?a - aircraft ?c1 - city ?c2 - city ?l1 - flevel ?l2 - flevel)
    :precondition (and
      (at ?a ?c1)
      (fuel_level ?a ?l1)
      (next ?l2 ?l1)
    )
    :effect (and
      (not (at ?a ?c1))
      (at ?a ?c2)
      (not (fuel_level ?a ?l1))
      (fuel_level ?a ?l2)
    )
  )

  ; zoom aircraft: changes the state as described in the text
  (:action zoom-aircraft
    :parameters (?a - aircraft ?c1 - city ?c2 - city ?l1 - flevel ?l2 - flevel ?l3 - flevel)
    :precondition (and
      (at ?a ?c1)
      (fuel_level ?a ?l1)
      (next ?l2 ?l1)
      (next ?l3 ?l2)
    )
    :effect (and
      (not (at ?a ?c1))
      (at ?a ?c2)
      (fuel_level ?a ?l3)
    )
  )

  ; refuel: preconditions must hold before the step
  (:action refuel
    :parameters (?a - aircraft ?c - city ?l - flevel ?l1 - flevel)
    :precondition (and
      (fuel_level ?a ?l)
      (next ?l ?l1)
      (at ?a ?c)
    )
    :effect (and
      (fuel_level ?a ?l1)
      (not (fuel_level ?a))
    )
  )
)
