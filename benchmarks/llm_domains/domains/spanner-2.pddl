(define (domain spanner)
	(:requirements :typing :strips)
	(:types location locatable - object man nut spanner - locatable)
	(:predicates
		(at ?m - locatable ?l - location)
		(carrying ?m - man ?s - spanner)
		(useable ?s - spanner)
		(link ?l1 - location ?l2 - location)
		(tightened ?n - nut)
		(is-loose ?n - nut)
	)

	; walk location: the agent performs this step of the procedure
	(:action walk-location
		:parameters (?start - location ?end - location ?m - man)
		:precondition (and (at ?m1 ?start))
		:effect (and
			(not (at ?m ?start))
			(at ?m ?end)
		)
	)

	; pickup wrench: changes the state as described in the text
	(:action pickup-wrench
		:parameters (?l - location ?s - spanner ?m - man)
		:precondition (and
			(at ?m ?l)
			(at ?s ?l)
		)
		:effect (and
			(not (at ?s ?l))
			(carrying ?m ?s)
		)
	)

	; tighten nut: preconditions must hold before the step
	(:action tighten_nut
		:parameters (?l - location ?s - spanner ?m - man ?n - nut)
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
