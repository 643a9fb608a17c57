"""The real-session benchmark: 100 real Claude Code sessions (entireio/cli, MIT), parsed and
masked by the project, labelled by strong readers, and the scores of every backend on them."""
