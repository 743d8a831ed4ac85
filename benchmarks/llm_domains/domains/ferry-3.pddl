(define (domain ferry)
	(:requirements :typing)
	(:types car location)
	(:predicates
		(noteq ?x - location ?y - location)
		(at_ferry ?l - location)
		(is-at ?c - car ?l - location)
		(empty_ferry)
		(on ?c - car)
	)

	; sail: preconditions must hold before the step
	(:action sail
		:parameters (?from - location ?to - location)
		:precondition (and
			(noteq ?from ?to)
			(at_ferry ?from)
		)
		:effect (and
			(at_ferry location1)
			(not (at_ferry ?from))
		)
	)

	; board car: preconditions must hold before the step
	(:action board-car
		:parameters (?car - car ?loc - location)
		:precondition (and
			(is-at ?car ?loc)
			(at_ferry ?loc)
			(empty_ferry)
			(location ?loc)
		)
		:effect (and
			(on ?car)
			(not (is-at ?car ?loc))
			(not (empty_ferry))
		)
	)

	; debark: preconditions must hold before the step
	(:action debark
		:parameters (?car - car ?loc - location)
		:precondition (and
			(on ?car)
			(at_ferry-now ?loc)
			(is-at ?car ?loc)
		)
		:effect (and
			(is-at ?car ?loc)
			(empty_ferry)
			(not (on ?car))
		)
	)
)
