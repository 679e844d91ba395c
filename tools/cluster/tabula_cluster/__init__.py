"""tools/cluster: Tabula's command-line tools scheduled by Ray.

The Rust side stays a set of programs: `arena -pair K -results FILE` plays
one game pair, `arena merge` reports merged results, `tabula solve
split=P` lists sub-proofs and `split=P leaves=FILE` combines them. This
package hands those runs to Ray tasks and puts the answers together.
"""
