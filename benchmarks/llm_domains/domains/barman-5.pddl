(define (domain barman)
  (:requirements :strips :typing)
  (:types hand level beverage dispenser container - object ingredient cocktail - beverage shot shaker - container)
  (:predicates
    (ontable ?c - container)
    (holding ?h - hand ?c - container)
    (handempty ?h - hand)
    (empty ?c - container)
    (contains ?c - container ?b - beverage)
    (clean ?c - container)
    (used ?c - container ?b - beverage)
    (dispenses ?d - dispenser ?i - ingredient)
    (shaker_empty_level ?s - shaker ?l - level)
    (shaker_level ?s - shaker ?l - level)
    (next ?l1 - level ?l2 - level)
    (unshaked ?s - shaker)
    (shaked ?s - shaker)
    (cocktail_part1 ?c - cocktail ?i - ingredient)
    (cocktail_part2 ?c - cocktail ?i - ingredient)
  )

  (:action grasp
    :parameters (?h - hand ?c - container)
    :precondition (and
      (ontable ?c)
      (handempty ?h)
    )
    :effect (and
      (not (ontable ?c))
      (not (handempty ?h))
      (holding ?h ?c)
    )
  )

  (:action leave
    :parameters (?h - hand ?c - container)
    :precondition (holding ?h ?c)
    :effect (and
      (not (holding ?h ?c))
      (handempty ?h)
      (ontable ?c)
    )
  )

  (:action fill_shot
    :parameters (?s - shot ?i - ingredient ?h1 - hand ?h2 - hand ?d - dispenser)
    :precondition (and
      (holding ?h1 ?s)
      (handempty ?h2)
      (dispenses ?d ?i)
      (empty ?s)
      (clean ?s)
    )
    :effect (and
      (not (empty ?s))
      (contains ?s ?i)
      (not (clean ?s))
      (used ?s ?i)
    )
  )

  (:action refill_shot
    :parameters (?s - shot ?i - ingredient ?h1 - hand ?h2 - hand ?d - dispenser)
    :precondition (and
      (holding ?h1 ?s)
      (handempty ?h2)
      (dispenses ?d ?i)
      (empty ?s)
      (used ?s ?i)
    )
    :effect (and
      (not (empty ?s))
      (contains ?s ?i)
    )
  )

  (:action empty_shot
    :parameters (?h - hand ?p - shot ?b - beverage)
    :precondition (and
      (holding ?h ?p)
      (contains ?p ?b)
    )
    :effect (and
      (not (contains ?p ?b))
      (empty ?p)
    )
  )

  (:action clean_shot
    :parameters (?s - shot ?b - beverage ?h1 - hand ?h2 - hand)
    :precondition (and
      (holding ?h1 ?s)
      (handempty ?h2)
      (empty ?s)
      (used ?s ?b)
    )
    :effect (and
      (not (used ?s ?b))
      (clean ?s)
    )
  )

  (:action pour_shot_to_clean_shaker
    :parameters (?s - shot ?i - ingredient ?d - shaker ?h1 - hand ?l - level ?l1 - level)
    :precondition (and
      (holding ?h1 ?s)
      (contains ?s ?i)
      (empty ?d)
      (clean ?d)
      (shaker_level ?d ?l)
      (next ?l ?l1)
    )
    :effect (and
      (not (contains ?s ?i))
      (empty ?s)
      (contains ?d ?i)
      (not (empty ?d))
      (not (clean ?d))
      (unshaked ?d)
      (not (shaker_level ?d ?l))
      (shaker_level ?d ?l1)
    )
  )

  (:action pour_shot_to_used_shaker
    :parameters (?s - shot ?i - ingredient ?d - shaker ?h1 - hand ?l - level ?l1 - level)
    :precondition (and
      (holding ?h1 ?s)
      (contains ?s ?i)
      (unshaked ?d)
      (shaker_level ?d ?l)
      (next ?l ?l1)
    )
    :effect (and
      (not (contains ?s ?i))
      (contains ?d ?i)
      (empty ?s)
      (not (shaker_level ?d ?l))
      (shaker_level ?d ?l1)
    )
  )

  (:action empty_shaker
    :parameters (?h - hand ?s - shaker ?b - cocktail ?l - level ?l1 - level)
    :precondition (and
      (holding ?h ?s)
      (contains ?s ?b)
      (shaked ?s)
      (shaker_level ?s ?l)
      (shaker_empty_level ?s ?l1)
    )
    :effect (and
      (not (shaked ?s))
      (not (shaker_level ?s ?l))
      (shaker_level ?s ?l1)
      (not (contains ?s ?b))
      (empty ?s)
    )
  )

  (:action clean_shaker
    :parameters (?h1 - hand ?h2 - hand ?s - shaker)
    :precondition (and
      (holding ?h1 ?s)
      (handempty ?h2)
      (empty ?s)
    )
    :effect (and (clean ?s))
  )

  (:action shake
    :parameters (?b - cocktail ?d1 - ingredient ?d2 - ingredient ?s - shaker ?h1 - hand ?h2 - hand)
    :precondition (and
      (holding ?h1 ?s)
      (handempty ?h2)
      (contains ?s ?d1)
      (contains ?s ?d2)
      (cocktail_part1 ?b ?d1)
      (cocktail_part2 ?b ?d2)
      (unshaked ?s)
      (cocktail_part1 ?b ?d2)
    )
    :effect (and
      (not (unshaked ?s))
      (not (contains ?s ?d1))
      (not (contains ?s ?d2))
      (shaked ?s)
      (contains ?s ?b)
    )
  )

  (:action pour_shaker_to_shot
    :parameters (?b - beverage ?d - shot ?h - hand ?s - shaker ?l - level ?l1 - level)
    :precondition (and
      (holding ?h ?s)
      (shaked ?s)
      (empty ?d)
      (clean ?d)
      (contains ?s ?b)
      (shaker_level ?s ?l)
      (next ?l1 ?l)
      (hand ?h)
    )
    :effect (and
      (not (clean ?d))
      (not (empty ?d))
      (contains ?d ?b)
      (shaker_level ?s ?l1)
      (not (shaker_level ?s ?l))
    )
  )
)
