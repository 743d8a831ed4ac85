(define (domain parking)
	(:requirements :strips :typing)
	(:types car curb)
	(:predicates
		(is-at-curb ?car - car)
		(at_curb_num ?car - car ?curb - curb)
		(behind_car ?car - car ?front_car - car)
		(car_clear ?car - car)
		(curb_clear ?curb - curb)
	)

	; move curb to curb: the agent performs this step of the procedure
	(:action move_curb_to_curb
		:parameters (?car - car ?curbsrc - curb ?curbdest - curb)
		:precondition (and
			(car_clear ?car)
			(curb_clear ?curbdest)
			(at_curb_num ?car ?curbsrc)
		)
		:effect (and
			(not (curb_clear))
			(curb_clear ?curbsrc)
			(at_curb_num ?car ?curbdest)
			(not (at_curb_num ?car ?curbsrc))
		)
	)

	; move curb to car: changes the state as described in the text
	(:action move_curb_to_car
		:parameters (?car - car ?curbsrc - curb ?cardest - car)
		:precondition (and
			(car_clear ?car)
			(car_clear ?cardest)
			(at_curb_num ?car ?curbsrc)
			(is-at-curb ?cardest)
		)
		:effect (and
			(not (car_clear ?cardest))
			(curb_clear ?curbsrc)
			(behind_car ?car ?cardest)
			(not (at_curb_num ?car ?curbsrc))
			(not (is-at-curb ?car))
		)
	)

	; move vehicle to curb: changes the state as described in the text
	(:action move-vehicle-to-curb
		:parameters (?car - car ?carsrc - car ?curbdest - curb)
		:precondition (and
			(car_clear ?car)
			(curb_clear ?curbdest)
			(behind_car ?car ?carsrc)
		)
		:effect (and
			(not (curb_clear ?curbdest))
			(car_clear ?carsrc)
			(at_curb_num ?car ?curbdest)
			(not (behind_car ?car ?carsrc))
			(is-at-curb ?car)
		)
	)

	; move car to car: preconditions must hold before the step
	(:action move_car_to_car
		:parameters (?car - car ?carsrc - car ?cardest - car)
		:precondition (and
			(car_clear ?car)
			(car_clear ?cardest)
			(behind_car ?car ?carsrc)
			(is-at-curb ?cardest)
		)
		:effect (and
			(not (car_clear ?cardest))
			(car_clear ?carsrc)
			(behind_car ?car ?cardest)
			(not (behind_car ?car ?carsrc))
		)
	)
)
