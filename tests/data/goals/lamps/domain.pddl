; Written for amlasp's tests of goals that are no conjunctions of literals (issue 31): lamps that are
; switched and carried between rooms; a room is bright when a lamp in it is on (a derived predicate).
(define (domain lamps)
  (:requirements :strips :typing :negative-preconditions :equality :derived-predicates
                 :universal-preconditions :existential-preconditions :disjunctive-preconditions)
  (:types lamp room)
  (:constants main - lamp)
  (:predicates (on ?l - lamp) (in ?l - lamp ?r - room) (bright ?r - room))
  (:derived (bright ?r - room) (exists (?l - lamp) (and (in ?l ?r) (on ?l))))
  (:action switch-on :parameters (?l - lamp) :precondition (not (on ?l)) :effect (on ?l))
  (:action switch-off :parameters (?l - lamp) :precondition (on ?l) :effect (not (on ?l)))
  (:action carry :parameters (?l - lamp ?from ?to - room)
    :precondition (and (in ?l ?from) (not (= ?from ?to)))
    :effect (and (in ?l ?to) (not (in ?l ?from)))))
