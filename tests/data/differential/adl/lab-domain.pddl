; Every ADL feature amlasp supports, in one small world: a type hierarchy, constants,
; negative preconditions, equality, or / imply / exists / forall preconditions, conditional
; and universal effects (also nested), a toggle (conditions read the old state), and an
; action that deletes and adds the same atom (delete before add: it stays true).
(define (domain lab)
  (:requirements :adl :typing :equality)
  (:types room item - object tool sample - item fragile - sample)
  (:constants hall - room master - tool)
  (:predicates (at ?i - item ?r - room) (robot ?r - room) (lit ?r - room) (door ?a ?b - room)
               (holding ?i - item) (handfree) (clean ?r - room) (broken ?s - sample))
  (:action go
    :parameters (?from ?to - room)
    :precondition (and (robot ?from) (or (door ?from ?to) (door ?to ?from)) (not (= ?from ?to)))
    :effect (and (not (robot ?from)) (robot ?to)
                 (forall (?i - item) (when (holding ?i) (and (at ?i ?to) (not (at ?i ?from)))))
                 (forall (?s - fragile) (when (and (holding ?s) (not (lit ?to))) (broken ?s)))))
  (:action pick
    :parameters (?i - item ?r - room)
    :precondition (and (robot ?r) (at ?i ?r) (handfree) (imply (= ?r hall) (lit hall)))
    :effect (and (holding ?i) (not (handfree))))
  (:action drop
    :parameters (?i - item ?r - room)
    :precondition (and (holding ?i) (robot ?r))
    :effect (and (not (holding ?i)) (handfree)))
  (:action toggle
    :parameters (?r - room)
    :precondition (and (robot ?r) (exists (?t - tool) (holding ?t)))
    :effect (and (when (lit ?r) (not (lit ?r))) (when (not (lit ?r)) (lit ?r))))
  (:action relight
    :parameters (?r - room)
    :precondition (robot ?r)
    :effect (and (not (lit ?r)) (lit ?r) (not (clean ?r))))
  (:action sweep
    :parameters (?r - room)
    :precondition (and (robot ?r) (holding master) (forall (?s - sample) (not (at ?s ?r))))
    :effect (and (clean ?r)
                 (forall (?n - room) (when (and (door ?r ?n) (not (= ?n hall))) (clean ?n)))))
  (:action spill
    :parameters (?r - room)
    :precondition (and (robot ?r) (exists (?s - sample) (and (at ?s ?r) (broken ?s))))
    :effect (forall (?n - room) (when (or (= ?n ?r) (door ?r ?n)) (not (clean ?n))))))
