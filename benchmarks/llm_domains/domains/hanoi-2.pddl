(define (domain hanoi)
	(:types disc table - platform)
	(:predicates
		(clear ?x - platform)
		(is-on ?x - disc ?y - platform)
		(smaller ?x - platform ?y - disc)
	)

	(:action move
		:parameters (?disc - disc ?from - platform ?to - platform)
		:precondition (and
			(smaller ?to ?disc)
			(is-on ?disc ?from)
			(clear ?disc)
			(clear ?to)
		)
		:effect (and
			(clear ?from)
			(is-on ?disc ?to)
			(not (is-on ?disc))
			(not (clear ?to))
		)
	)
)
