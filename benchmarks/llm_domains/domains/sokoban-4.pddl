(define (domain typed_sokoban)
	(:requirements :typing)
	(:types loc dir box)
	(:predicates
		(at_robot ?l - loc)
		(at ?o - box ?l - loc)
		(adjacent ?l1 - loc ?l2 - loc ?d - dir)
		(clear ?l - loc)
	)

	; move: changes the state as described in the text
	(:action move
		:parameters (?from - loc ?to - loc ?dir - dir)
		:precondition (and
			(clear ?to)
			(at_robot ?from)
			(adjacent ?from ?to ?dir)
		)
		:effect (and
			(at_robot ?to)
			(not (at_robot))
		)
	)

	; push: the agent performs this step of the procedure
	(:action push
		:parameters (?rloc - loc ?bloc - loc ?floc - loc ?dir - dir ?b - box)
		:precondition (and
			(at_robot ?rloc)
			(clear ?floc)
			(adjacent ?rloc ?bloc ?dir)
			(adjacent ?bloc ?floc ?dir)
			(at_robot ?floc)
		)
		:effect (and
			(at_robot ?bloc)
			(at ?b ?floc)
			(clear ?bloc)
			(not (at_robot ?rloc))
			(not (at ?b ?bloc))
			(not (clear ?floc))
		)
	)
)
