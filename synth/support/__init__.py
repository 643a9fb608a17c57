"""The support check's rules, one concept per module; `synth.grounding` composes them.

- `lexical`: what the cited events hold: words, stems, figures, paths, identifiers;
- `units`: sentences and clauses, the pieces an item is matched against;
- `polarity`: negation, outcome and status words, chosen and rejected alternatives;
- `outcome`: a claimed success needs a sentence that tells it worked, not only failures;
- `status`: what a sentence tells as still to come (will, until, after review) is not done;
- `figures`: which subject a figure stands with, and which way a change went;
- `refuted`: hypotheses that later events of the window reject;
- `paraphrase`: closeness in meaning, for restatements with few shared words;
- `verify`: the model's own verdict on each item (strong backends).
"""
