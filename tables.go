package pad

import "cmp"

// The shuffle, wide, lines and expand kernels read tables made for one
// element size. A plan builds them at its first run with that size, not in
// NewPlan: a plan is run at one element size almost always, and Pad and
// Into make a plan per call (for case a's shape the five sizes' tables
// were 43 KB and half of NewPlan's time).

// sizeTables are the tables of a plan's program (Plan.levels) at one
// element size; any of them may be nil.
type sizeTables struct {
	shuffle *shuffleTable // the innermost level's rows, narrow (shuffle.go)
	wide    *shuffleTable // or wide
	lines   *linesSet     // the planes of the level above, by the lines kernel (rowslines.go)
	expand  *expandTable  // or by the expand kernel (rowsexpand.go)
}

// noTables are the tables of sizes the kernels do not handle and of
// programs without any.
var noTables sizeTables

// tablesFor returns the plan's tables at element size bytes, built at the
// first call with that size. Concurrent first calls may each build them;
// all but one set are dropped.
func (p *Plan) tablesFor(size int) *sizeTables {
	if !kernelSize(size) {
		return &noTables
	}
	slot := &p.tables[sizeIndex(size)]
	if t := slot.Load(); t != nil {
		return t
	}
	t := p.buildTables(size)
	if !slot.CompareAndSwap(nil, t) {
		t = slot.Load()
	}
	return t
}

func (p *Plan) buildTables(size int) *sizeTables {
	n := len(p.levels)
	lv := &p.levels[n-1]
	var t sizeTables
	t.shuffle, t.wide = rowTables(lv, p.strides[n-1], size)
	if n >= 2 {
		pl := &p.levels[n-2]
		if n >= 3 && pl.list != nil && (t.shuffle != nil || t.wide != nil) {
			dstPlanes, srcPlanes := 1, 1
			for _, up := range p.levels[:n-2] {
				dstPlanes, srcPlanes = dstPlanes*up.outLen, srcPlanes*up.inLen
			}
			t.lines = linesOf(pl, lv, cmp.Or(t.shuffle, t.wide), t.wide != nil, p.strides[n-3], p.strides[n-2], p.strides[n-1], size, dstPlanes, srcPlanes)
		}
		t.expand = expandOf(pl, lv, p.strides[n-2], size)
	}
	if t == (sizeTables{}) {
		return &noTables
	}
	return &t
}
