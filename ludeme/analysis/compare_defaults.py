"""The defaults of `ludeme.analysis.compare`, in a module that imports nothing, so the command
line shows them without loading pandas and scipy."""

DEFAULT_PLAYOUTS = 500
DEFAULT_IDENTITY_SEEDS = 20
ALPHA = 0.05
CORRECTIONS = {"holm": "holm", "bh": "fdr_bh"}
