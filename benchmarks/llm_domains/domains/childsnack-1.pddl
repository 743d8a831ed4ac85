Sure! Below is the complete domain file.

(define (domain child_snack)
    (:types child bread_portion content_portion sandwich tray place)
    (:constants kitchen - place)
    (:predicates
        (at_kitchen_bread ?b - bread_portion)
        (at_kitchen_content ?c - content_portion)
        (at_kitchen_sandwich ?s - sandwich)
        (no_gluten_bread ?b - bread_portion)
        (no_gluten_content ?c - content_portion)
        (ontray ?s - sandwich ?t - tray)
        (no_gluten_sandwich ?s - sandwich)
        (allergic_gluten ?c - child)
        (not_allergic_gluten ?c - child)
        (served ?c - child)
        (waiting ?c - child ?p - place)
        (at ?t - tray ?p - place)
        (notexist ?s - sandwich)
    )

    (:action make_sandwich_no_gluten
        :parameters (?s - sandwich ?b - bread_portion ?c - content_portion)
        :precondition (and
            (at_kitchen_bread ?b)
            (at_kitchen_content ?c)
            (no_gluten_bread ?b)
            (no_gluten_content ?c)
            (notexist ?s)
        )
        :effect (and
            (not (at_kitchen_bread ?b))
            (not (at_kitchen_content ?c))
            (at_kitchen_sandwich ?s)
            (no_gluten_sandwich ?s)
            (not (notexist ?s))
        )
    )

    (:action make-food
        :parameters (?s - sandwich ?b - bread_portion ?c - content_portion)
        :precondition (and
            (at_kitchen_bread ?b)
            (at_kitchen_content ?c)
            (notexist ?s)
        )
        :effect (and
            (not (at_kitchen_bread ?b))
            (not (at_kitchen_content ?c))
            (at_kitchen_sandwich s)
            (not (notexist ?s))
        )
    )

    (:action put_on_tray
        :parameters (?s - sandwich ?t - plate)
        :precondition (and
            (at_kitchen_sandwich ?s)
            (at ?t kitchen)
        )
        :effect (and
            (not (at_kitchen_sandwich ?s))
            (ontray ?s ?t)
        )
    )

    (:action serve_sandwich_no_gluten
        :parameters (?s - sandwich ?c - child ?t - tray ?p - place)
        :precondition (and
            (allergic_gluten ?c)
            (ontray ?s ?t)
            (waiting ?c ?p)
            (no_gluten_sandwich ?s)
            (at ?t ?p)
        )
        :effect (and
            (not (ontray ?s ?t))
            (served ?c)
        )
    )

    (:action serve_sandwich
        :parameters (?s - sandwich ?c - child ?t - tray ?p - place)
        :precondition (and
            (not_allergic_gluten ?c)
            (waiting ?c ?p)
            (ontray ?s ?t)
            (at ?t ?p)
        )
        :effect (and
            (not (ontray ?s ?t))
            (served ?c)
        )
    )

    (:action move_tray
        :parameters (?t - tray ?p1 - place ?p2 - place)
        :precondition (and (at ?t ?p1))
        :effect (and
            (not (at ?t ?p1))
            (at ?t ?p2)
        )
    )
)
