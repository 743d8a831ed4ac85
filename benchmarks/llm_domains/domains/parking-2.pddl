(define (domain parking)
	(:requirements :strips :typing)
	(:types car curb)
	(:predicates
		(at_curb ?car - car)
		(at_curb_num ?car - car ?curb - curb)
		(behind_car ?car - car ?front_car - car)
		(vehicle-clear ?car - car)
		(curb_clear ?curb - curb)
	)

	(:action move_curb_to_curb
		:parameters (?car - car ?curbsrc - curb ?curbdest - curb)
		:precondition (and
			(vehicle-clear ?car)
			(is-curb_clear ?curbdest)
			(at_curb_num ?car ?curbsrc)
		)
		:effect (and
			(not (curb_clear ?curbdest))
			(curb_clear ?curbsrc)
			(at_curb_num ?car ?curbdest)
		)
	)

	(:action move_curb_to_car
		:parameters (?car - car ?curbsrc - curb ?cardest - car)
		:precondition (and
			(vehicle-clear ?car)
			(vehicle-clear ?cardest)
			(at_curb_num ?car ?curbsrc)
			(at_curb ?cardest)
			(curb_clear ?curbsrc)
		)
		:effect (and
			(not (vehicle-clear ?cardest))
			(curb_clear ?curbsrc)
			(behind_car ?car ?cardest)
			(not (at_curb_num ?car ?curbsrc))
			(not (at_curb ?car))
		)
	)

	(:action move_car_to_curb
		:parameters (?car - car ?carsrc - car ?curbdest - curb)
		:precondition (and
			(vehicle-clear ?car)
			(curb_clear ?curbdest)
			(behind_car ?car ?carsrc)
		)
		:effect (and
			(not (curb_clear ?curbdest))
			(vehicle-clear ?carsrc)
			(at_curb_num ?car ?curbdest)
			(not (behind_car ?car ?carsrc))
			(at_curb ?car)
		)
	)

	(:action move_car_to_car
		:parameters (?car - car ?carsrc - car ?cardest - car)
		:precondition (and
			(vehicle-clear ?car)
			(vehicle-clear ?cardest)
			(behind_car ?car ?carsrc)
			(at_curb ?cardest)
		)
		:effect (and
			(not (vehicle-clear ?cardest))
			(vehicle-clear ?carsrc)
			(behind_car ?car ?cardest)
			(not (behind_car ?car ?carsrc))
		)
	)
)
