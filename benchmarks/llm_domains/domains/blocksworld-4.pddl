(define (domain blocksworld)
    (:requirements :strips :typing)
    (:types block)
    (:predicates
        (on ?x - block ?y - block)
        (ontable ?x - block)
        (clear ?x - block)
        (is-handempty)
        (holding ?x - block)
    )

    ; pick up: changes the state as described in the text
    (:action pick_up
        :parameters (?x - block)
        :precondition (and
            (clear ?x)
            (ontable ?x)
            (is-handempty)
        )
        :effect (and
            (not (ontable ?x))
            (not (clear ?x))
            (not (is-handempty))
            (holding ?x)
        )
    )

    ; put down block: the agent performs this step of the procedure
    (:action put-down-block
        :parameters (?x - block)
        :precondition (holding ?x)
        :effect (and
            (not (holding ?x))
            (clear ?x)
            (is-handempty)
            (ontable ?x)
        )
    )

    ; stack: the agent performs this step of the procedure
    (:action stack
        :parameters (?x - block ?y - block)
        :precondition (and
            (holding ?x)
            (clear ?y)
        )
        :effect (and
            (not (holding ?x))
            (not (clear ?y))
            (clear ?x)
            (is-handempty)
            (on ?x ?y)
        )
    )

    ; unstack: the agent performs this step of the procedure
    (:action unstack
        :parameters (?x - block ?y - block)
        :precondition (and
            (on ?x ?y)
            (clear ?x)
            (is-handempty)
        )
        :effect (and
            (holding ?x)
            (clear ?y)
            (not (clear ?x))
            (not (is-handempty))
            (not (on ?x ?y))
        )
    )
)
