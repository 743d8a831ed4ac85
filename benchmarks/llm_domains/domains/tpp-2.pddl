(define (domain tpp_propositional)
  (:types place locatable level - object depot market - place truck goods - locatable)
  (:predicates
    (loaded ?g - goods ?t - truck ?l - level)
    (ready_to_load ?g - goods ?m - market ?l - level)
    (is-stored ?g - goods ?l - level)
    (on_sale ?g - goods ?m - market ?l - level)
    (next ?l1 - level ?l2 - level)
    (at ?t - truck ?p - place)
    (connected ?p1 - place ?p2 - place)
  )

  (:action drive
    :parameters (?t - truck ?from - place ?to - place)
    :precondition (and
      (at ?t ?from)
      (connected ?from ?to)
    )
    :effect (and
      (not (at ?t ?from))
      (at ?t ?to)
    )
  )

  (:action load
    :parameters (?g - goods ?t - truck ?m - market ?l1 - level ?l2 - level ?l3 - level ?l4 - level)
    :precondition (and
      (at ?t ?m)
      (loaded ?g ?t ?l3)
      (ready_to_load ?g ?m ?l2)
      (next ?l4 ?l3)
    )
    :effect (and
      (loaded ?g ?t ?l4)
      (not (loaded ?g ?t ?l3))
      (ready_to_load ?g ?m ?l1)
      (not (ready_to_load ?g ?m ?l2))
    )
  )

  (:action unload
    :parameters (?g - goods ?t - truck ?d - depot ?l1 - level ?l2 - level ?l3 - level ?l4 - level)
    :precondition (and
      (at ?t ?d)
      (loaded ?g ?t ?l2)
      (is-stored ?g ?l3)
      (next ?l2 ?l1)
      (next ?l4 ?l3)
    )
    :effect (and
      (loaded ?g ?t ?l1)
      (not (loaded ?g ?t ?l2))
      (is-stored goods1 ?l4)
      (not (is-stored ?g ?l3))
    )
  )

  (:action buy
    :parameters (?t - truck ?g - goods ?m - market ?l1 - level ?l2 - level ?l3 - level ?l4 - level)
    :precondition (and
      (at ?t ?m)
      (on_sale ?g ?m ?l2)
      (ready_to_load ?g ?m ?l3)
      (next ?l2 ?l1)
      (next ?l4 ?l3)
    )
    :effect (and
      (on_sale ?g ?m ?l1)
      (not (on_sale ?g ?m ?l2))
      (ready_to_load ?g ?m ?l4)
      (not (ready_to_load ?g ?m ?l3))
    )
  )
)
