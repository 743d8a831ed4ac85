```pddl
(define (domain typed_sokoban)
	(:requirements :typing)
	(:types loc dir box)
	(:predicates
		(at_robot ?l - loc)
		(is-at ?o - box ?l - loc)
		(adjacent ?l1 - loc ?l2 - loc ?d - dir)
		(clear ?l - loc)
	)

	; move loc: the agent performs this step of the procedure
	(:action move-loc
		:parameters (?from - loc ?to - loc ?dir - dir)
		:precondition (and
			(clear ?to)
			(at_robot ?from)
			(adjacent ?from ?to ?dir)
		)
		:effect (and
			(at_robot ?to)
			(not (at_robot ?from))
		)
	)

	; push loc: changes the state as described in the text
	(:action push-loc
		:parameters (?rloc - loc ?bloc - loc ?floc - loc ?dir - dir ?b - box)
		:precondition (and
			(at_robot ?rloc)
			(is-at ?b ?bloc)
			(clear ?floc)
			(adjacent ?rloc ?bloc ?dir)
			(adjacent ?bloc ?floc ?dir)
		)
		:effect (and
			(at_robot ?bloc)
			(is-at ?b ?floc)
			(clear ?bloc)
			(not (at_robot loc1))
			(not (is-at ?b ?bloc))
			(not (clear ?floc))
		)
	)
)
```
