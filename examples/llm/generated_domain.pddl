; A domain as a language model might write blocksworld from its description: other variable
; names, the parameters of stack in the other order, and one precondition forgotten (the target
; must be clear). Made by hand from examples/blocksworld/domain.pddl (MIT, LICENSE beside).
(define (domain blocksworld)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?top - block ?below - block) (ontable ?b - block) (clear ?b - block)
               (handempty) (holding ?b - block))
  (:action pick_up
    :parameters (?b - block)
    :precondition (and (ontable ?b) (clear ?b) (handempty))
    :effect (and (holding ?b) (not (ontable ?b)) (not (clear ?b)) (not (handempty))))
  (:action put_down
    :parameters (?b - block)
    :precondition (holding ?b)
    :effect (and (ontable ?b) (clear ?b) (handempty) (not (holding ?b))))
  (:action stack
    :parameters (?target - block ?b - block)
    :precondition (holding ?b)
    :effect (and (on ?b ?target) (clear ?b) (handempty) (not (holding ?b)) (not (clear ?target))))
  (:action unstack
    :parameters (?b - block ?from - block)
    :precondition (and (on ?b ?from) (clear ?b) (handempty))
    :effect (and (holding ?b) (clear ?from) (not (on ?b ?from)) (not (clear ?b)) (not (handempty)))))
