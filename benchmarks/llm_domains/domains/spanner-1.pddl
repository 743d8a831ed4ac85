(define (domain spanner)
  (:requirements :typing :strips)
  (:types location locatable - object man nut spanner - locatable)
  (:predicates
    (is-at ?m - locatable ?l - location)
    (carrying ?m - man ?s - spanner)
    (useable ?s - spanner)
    (link ?l1 - location ?l2 - location)
    (tightened ?n - nut)
    (loose ?n - nut)
  )

  (:action walk
    :parameters (?start - location ?end - location ?m - man)
    :precondition (and
      (is-at ?m ?start)
      (link ?start ?end)
    )
    :effect (and
      (not (is-at ?m ?start))
      (is-at ?m ?end)
    )
  )

  (:action pickup_spanner
    :parameters (?l - location ?s - spanner ?m - man)
    :precondition (and
      (is-at ?m ?l)
      (is-at ?s ?l)
    )
    :effect (and
      (not (is-at ?s ?l))
      (carrying ?m ?s)
    )
  )

  (:action tighten_nut
    :parameters (?l - location ?s - spanner ?m - man ?n - nut)
    :precondition (and
      (is-at ?m ?l)
      (is-at ?n ?l)
      (carrying ?m ?s)
      (useable ?s)
      (loose ?n)
    )
    :effect (and
      (not (loose ?n))
      (not (useable ?s))
      (tightened ?n)
    )
  )
)
