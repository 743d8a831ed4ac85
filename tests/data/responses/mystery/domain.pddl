; Blocksworld with obfuscated, hyphenated and underscored names (in the manner of PlanBench's
; "mystery" blocksworld): xq-attack picks up, succumb_9 puts down, over-come stacks, feast unstacks.
(define (domain mystery-obf)
  (:requirements :strips :typing)
  (:types thing)
  (:predicates (prov ?x - thing) (plan-et ?x - thing) (harmony) (pain ?x - thing) (craves ?x ?y - thing))
  (:action xq-attack
    :parameters (?ob - thing)
    :precondition (and (prov ?ob) (plan-et ?ob) (harmony))
    :effect (and (pain ?ob) (not (prov ?ob)) (not (plan-et ?ob)) (not (harmony))))
  (:action succumb_9
    :parameters (?ob - thing)
    :precondition (pain ?ob)
    :effect (and (prov ?ob) (plan-et ?ob) (harmony) (not (pain ?ob))))
  (:action over-come
    :parameters (?ob ?underob - thing)
    :precondition (and (prov ?underob) (pain ?ob))
    :effect (and (harmony) (prov ?ob) (craves ?ob ?underob) (not (prov ?underob)) (not (pain ?ob))))
  (:action feast
    :parameters (?ob ?underob - thing)
    :precondition (and (craves ?ob ?underob) (prov ?ob) (harmony))
    :effect (and (pain ?ob) (prov ?underob) (not (craves ?ob ?underob)) (not (prov ?ob)) (not (harmony)))))
