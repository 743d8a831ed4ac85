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
		:parameters (?from - location ?to - place)
		:precondition (and
			(noteq ?from ?to)
			(at_ferry ?from)
		)
		:effect (and
			(at_ferry ?to)
			(not (at_ferry ?from))
		)
	)

	; board: preconditions must hold before the step
	(:action board
		:parameters (?car - car ?loc - place)
		:precondition (and
			(at ?car ?loc)
			(at_ferry ?loc)
			(empty_ferry)
		)
		:effect (and
			(on ?car)
			(not (at ?car ?loc))
			(not (empty_ferry))
		)
	)

	; debark: the agent performs this step of the procedure
	(:action debark
		:parameters (?car - car ?loc - location)
		:precondition (and
			(on ?car)
			(at_ferry ?loc)
			(noteq ?loc ?loc)
		)
		:effect (and
			(at ?car ?loc)
			(empty_ferry-now)
			(not (on ?car))
		)
	)
)
