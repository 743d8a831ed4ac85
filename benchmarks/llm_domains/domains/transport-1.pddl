(define (domain transport)
	(:types location target locatable - object vehicle package - locatable capacity_number)
	(:predicates
		(road ?l1 - location ?l2 - location)
		(at ?x - locatable ?v - location)
		(is-in ?x - package ?v - vehicle)
		(capacity ?v - vehicle ?s1 - capacity_number)
		(capacity_predecessor ?s1 - capacity_number ?s2 - capacity_number)
	)

	; drive: the agent performs this step of the procedure
	(:action drive
		:parameters (?v - vehicle ?l1 - location ?l2 - location)
		:precondition (and
			(at ?v ?l1)
			(road ?l1 ?l2)
		)
		:effect (and
			(not (at ?v ?l1))
			(at ?v ?l2)
		)
	)

	; pick up: preconditions must hold before the step
	(:action pick_up
		:parameters (?v - vehicle ?l - location ?p - package ?s1 - capacity_number ?s2 - capacity_number)
		:precondition (and
			(at ?v ?l)
			(at ?p ?l)
			(capacity_predecessor ?s1 ?s2)
			(capacity ?v ?s2)
			(capacity ?v ?s1)
		)
		:effect (and
			(not (at ?p ?l))
			(is-in ?p ?v)
			(capacity ?v ?s1)
			(not (capacity ?v ?s2))
		)
	)

	; drop: changes the state as described in the text
	(:action drop
		:parameters (?v - vehicle ?l - location ?p - package ?s1 - capacity_number ?s2 - capacity_number)
		:precondition (and
			(at ?v ?l)
			(is-in ?p ?v)
			(capacity_predecessor ?s1 ?s2)
			(capacity ?v ?s1)
			(capacity ?v ?s2)
		)
		:effect (and
			(not (is-in ?p ?v))
			(at ?p ?l)
			(capacity ?v ?s2)
			(not (capacity ?v ?s1))
		)
	)
)
