(define (domain grid)
	(:types place key shape)
	(:predicates
		(conn ?x - place ?y - place)
		(key_shape ?k - key ?s - shape)
		(lock_shape ?x - place ?s - shape)
		(at ?r - key ?x - place)
		(at_robot ?x - place)
		(locked ?x - place)
		(is-holding ?k - key)
		(open ?x - place)
		(arm_empty)
	)

	; unlock: changes the state as described in the text
	(:action unlock
		:parameters (?curpos - place ?lockpos - place ?key - key ?shape - shape)
		:precondition (and
			(conn ?curpos ?lockpos)
			(key_shape ?key ?shape)
			(lock_shape ?lockpos ?shape)
			(at_robot ?curpos)
			(locked ?lockpos)
			(is-holding ?key)
		)
		:effect (and
			(open ?lockpos)
			(not (locked ?lockpos))
			(not (= ?key ?lockpos))
		)
	)

	; move: changes the state as described in the text
	(:action move
		:parameters (?curpos - place ?nextpos - place)
		:precondition (and
			(at_robot ?curpos)
			(conn ?curpos ?nextpos)
			(open ?nextpos)
		)
		:effect (and
			(at_robot ?nextpos)
			(not (at_robot ?curpos))
		)
	)

	; pickup: changes the state as described in the text
	(:action pickup
		:parameters (?curpos - place ?key - key)
		:precondition (and
			(at ?key ?curpos)
			(arm_empty)
		)
		:effect (and
			(exists (?z - key) (is-holding ?z))
			(not (at ?key ?curpos))
			(not (arm_empty))
		)
	)

	; pickup and loose: changes the state as described in the text
	(:action pickup_and_loose
		:parameters (?curpos - place ?newkey - key ?oldkey - key)
		:precondition (and
			(at_robot ?curpos)
			(is-holding ?oldkey)
			(at ?newkey ?curpos)
			(key ?oldkey)
		)
		:effect (and
			(is-holding ?newkey)
			(at ?oldkey ?curpos)
			(not (is-holding ?oldkey))
			(not (at ?newkey ?curpos))
		)
	)

	; putdown: the agent performs this step of the procedure
	(:action putdown
		:parameters (?curpos - place ?key - key)
		:precondition (and
			(at_robot ?curpos)
			(is-holding ?key)
			(at ?key ?curpos)
		)
		:effect (and
			(arm_empty)
			(at ?key ?curpos)
			(not (is-holding ?key))
		)
	)
)
