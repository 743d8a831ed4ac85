(define (domain spanner)
  (:types location locatable - object man nut spanner - locatable)
  (:predicates
    (at ?m - locatable ?l - location)
    (carrying ?m - man ?s - spanner)
    (useable ?s - spanner)
    (link ?l1 - location ?l2 - location)
    (tightened ?n - nut)
    (is-loose ?n - nut)
  )

  (:action walk
    :parameters (?start - location ?end - location ?m - man)
    :precondition (and
      (at ?m ?start)
      (link ?start ?end)
      (at ?m ?end)
    )
    :effect (and
      (not (at ?m ?start))
      (at ?m ?end)
    )
  )

  (:action pickup-wrench
    :parameters (?l - location ?s - spanner ?m - man)
    :precondition (and
      (at ?m ?l)
      (at ?s ?l)
      (carrying ?m ?s)
    )
    :effect (and
      (not (at ?s ?l))
      (carrying ?m ?s)
    )
  )

  (:action tighten_nut
    :parameters (?s - spanner ?m - man ?n - nut)
    :precondition (and
      (at ?m ?l)
      (at ?n ?l)
      (carrying ?m ?s)
      (useable ?s)
      (is-loose ?n)
    )
    :effect (and
      (not (is-loose ?n))
      (not (useable ?s))
      (tightened ?n)
    )
  )
)
