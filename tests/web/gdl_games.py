"""Two small GDL games written for the web tests."""

GDL_STICKS = """
(role first) (role second)
(init (sticks 4)) (init (control first))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= (legal ?p (take 1)) (true (control ?p)) (true (sticks ?n)) (succ ?m ?n))
(<= (legal ?p (take 2)) (true (control ?p)) (true (sticks ?n)) (succ ?m ?n) (succ ?k ?m))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (next (sticks ?m)) (does ?p (take 1)) (true (sticks ?n)) (succ ?m ?n))
(<= (next (sticks ?k)) (does ?p (take 2)) (true (sticks ?n)) (succ ?m ?n) (succ ?k ?m))
(<= (next (control second)) (true (control first)))
(<= (next (control first)) (true (control second)))
(<= terminal (true (sticks 0)))
(<= (goal ?p 100) (role ?p) (true (control ?q)) (distinct ?p ?q))
(<= (goal ?p 0) (true (control ?p)))
"""
"""Sticks in GDL: 4 sticks, take 1 or 2, whoever takes the last stick wins."""

GDL_PENNIES = """
(role a) (role b)
(init start)
(<= (legal ?r heads) (role ?r) (true start))
(<= (legal ?r tails) (role ?r) (true start))
(<= (next (played ?x ?y)) (does a ?x) (does b ?y))
(<= terminal (true (played ?x ?y)))
(<= (goal a 100) (true (played ?x ?x)))
(<= (goal a 0) (true (played ?x ?y)) (distinct ?x ?y))
(<= (goal b 0) (true (played ?x ?x)))
(<= (goal b 100) (true (played ?x ?y)) (distinct ?x ?y))
"""
"""Matching pennies in GDL: both players choose at once."""
