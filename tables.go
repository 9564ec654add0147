package pad

import "math"

// The shuffle, wide, lines and expand kernels read tables made for one
// element size. A plan builds them at its first runs with that size, not in
// NewPlan: a plan is run at one element size almost always, and Pad and
// Into compile a plan for each shape they have not met lately (CachedPlan;
// for case a's shape the five sizes' tables were 43 KB and half of
// NewPlan's time).
//
// The lines and expand tables (periodic: a table per pair of line phases,
// a period of blocks long) cost more to build than one run saves: suite
// case g's tables took 14 us to build against a run of 6 us, a planar
// uint8 image's [3, 224, 224] reflected 38 us against 2.5. A plan builds them at its second
// run at a size, so that a shape padded once (by Pad, Into or a front-end)
// never pays for them, and a plan run again has them from then on.

// sizeTables are the tables of a plan's program (Plan.levels) at one
// element size; any of them may be nil.
type sizeTables struct {
	shuffle     *shuffleTable    // the innermost level's rows, narrow (shuffle.go)
	wide        *shuffleTable    // or wide
	shuffle256  *shuffle256Table // rows of 129 to 384 bytes from 64 to 256 (shuffle.go)
	ends        *endsTable       // rows with short pads (rowsends.go)
	endsWords   *endsWordsTable  // or, of words, pads of up to 32 bytes
	lines       *linesSet        // the planes of the level above, by the lines kernel (rowslines.go)
	expand      *expandTable     // or by the expand kernel (rowsexpand.go)
	rowExpand   *expandTable     // the innermost level's runs of rows, by the expand kernel (rowsexpand.go)
	cubeExpand  *expandTable     // the blocks of the level above the plane level, by the expand kernel (cubeExpandOf)
	plane       *planeShuffle    // the planes of the level above, each as one narrow row (shuffle.go)
	chunks      *chunkTable      // or by 64-byte blocks (chunks.go)
	chunkGroups *chunkGroup      // before plane, groups of its planes by 64-byte blocks (chunks.go)
	blockGroups *blockGroup      // or, without VBMI, by 32-byte blocks (chunks.go)
	blocks      *blockTable      // or, without VBMI, by 32-byte blocks (chunks.go)
	rowChunks   *rowChunkTable   // the innermost level's narrow rows, many at a time, by 64-byte blocks (chunks.go)
	rowBlocks   *rowBlockTable   // or, without VBMI, by 32-byte blocks (chunks.go)
	rowGroups   *rowGroupTable   // or, with VBMI, a few at a time as one row of the shuffle kernel (shuffle.go)
	cubes       *cubeTables      // the blocks of the level above the plane level (cubes.go)
	pieces      *pieceTable      // the innermost level's rows by the pieces kernel (piecesOf)
	dense       *expandTable     // interior padding: planes, or the whole output, by the expand kernel (denseExpandOf)
	denseRows   *expandTable     // or, where those are too large, rows
	generalRows *generalRows     // the innermost level's rows of a general form, by the shuffle kernels (generalRowTable)
	// periodic: the lines and expand tables were built where they apply.
	periodic bool
	// skipWide: the rows do not take the wide kernels, which the wide
	// table serves, but the lines kernel still does (wideInCache and
	// rowsBeatWide, in outputs the core's cache keeps).
	skipWide bool
}

// noTables are the tables of sizes the kernels do not handle and of
// programs without any.
var noTables = sizeTables{periodic: true}

// periodicAtFirstRun makes a plan build its periodic tables at its first
// run at a size. Tests set it, so that a plan they run once takes the
// kernels those tables serve.
var periodicAtFirstRun = false

// tablesFor returns the plan's tables at element size bytes: at the first
// call with that size its row tables, from the second (or the first, with
// periodicAtFirstRun) all of them. Concurrent calls may each build them;
// all but one set are dropped.
func (p *Plan) tablesFor(size int) *sizeTables {
	if !kernelSize(size) {
		return &noTables
	}
	slot := &p.tables[sizeIndex(size)]
	old := slot.Load()
	if old != nil && old.periodic {
		return old
	}
	t := p.buildTables(size, old, old != nil || periodicAtFirstRun)
	if !slot.CompareAndSwap(old, t) {
		t = slot.Load()
	}
	return t
}

// buildTables builds the tables at element size bytes, the periodic ones
// if periodic; rows, if not nil, has the row tables already.
func (p *Plan) buildTables(size int, rows *sizeTables, periodic bool) *sizeTables {
	n := len(p.levels)
	lv := &p.levels[n-1]
	t := sizeTables{periodic: periodic}
	if rows != nil { // the row and plane tables; no periodic ones
		t = *rows
		t.periodic = periodic
	} else {
		t.shuffle, t.wide, t.ends, t.endsWords, t.shuffle256 = rowTables(lv, p.strides[n-1], size)
		if n >= 2 && planeChunksOn {
			t.rowChunks = rowChunksOf(lv, p.strides[n-2], p.strides[n-1], size)
			if t.rowChunks == nil && t.shuffle == nil && t.shuffle256 == nil && t.wide == nil {
				t.rowChunks = pieceRowChunksOf(lv, p.strides[n-2], p.strides[n-1], size)
			}
		}
		if n >= 2 && planeBlocksOn {
			t.rowBlocks = rowBlocksOf(lv, p.strides[n-2], p.strides[n-1], size)
		}
		t.pieces = piecesOf(&lv.row, size)
		t.generalRows = generalRowTable(lv, p.strides[n-1], size)
		if n >= 2 {
			t.rowGroups = rowGroupOf(lv, p.strides[n-2], p.strides[n-1], size)
			t.rowExpand = rowExpandOf(lv, p.strides[n-2], size)
		}
		if n >= 4 && planeBlocksOn {
			t.cubes = cubeTablesOf(p.levels[n-4:], p.strides[n-4:], size)
		}
		if n >= 3 {
			t.plane = planeTable(&p.levels[n-2], lv, p.strides[n-2], p.strides[n-1], size)
			if t.plane != nil && planeChunksOn {
				t.chunkGroups = chunkGroupOf(&p.levels[n-2], lv, p.strides[n-3], p.strides[n-2], p.strides[n-1], size)
			}
			if t.plane == nil && planeChunksOn {
				t.chunks = chunkTableOf(&p.levels[n-2], lv, p.strides[n-2], p.strides[n-1], size)
			}
			if (t.plane == nil || t.plane.tab.narrow == nil) && planeBlocksOn {
				t.blocks = blockTableOf(&p.levels[n-2], lv, p.strides[n-2], p.strides[n-1], size)
			}
			planeOut := p.levels[n-2].outLen * p.levels[n-2].blk * size
			if t.plane != nil && (t.plane.tab.narrow == nil && t.plane.tab.words == nil || planeOut <= narrowGroupMax) && planeBlocksOn {
				// Planes that no shuffle kernel of the levels without
				// VBMI takes (blockGroupOf); where they have no blocks
				// table of their own, in groups that fit the runs of
				// planes the executor passes (segmentRunMax).
				most := math.MaxInt
				if t.blocks == nil {
					most = segmentRunMax(&p.levels[n-3])
				}
				t.blockGroups = blockGroupOf(&p.levels[n-2], lv, p.strides[n-3], p.strides[n-2], p.strides[n-1], size, most)
			}
		}
	}
	inCache := !pastCache(p.outLen*size, p.workersFor(size))
	t.skipWide = t.wide != nil && !wideInCache && inCache && rowsBeatWide(&lv.row, lv.outLen*lv.blk*size, size, t.ends)
	if periodic && n >= 2 {
		pl := &p.levels[n-2]
		// Wide rows take the lines kernel in the core's cache only, where
		// their row ends cost: suite case b (4.9 MiB of output, from
		// memory) took a median 110 us with it against 99 us without
		// (peer harness, 5 alternated runs). Narrow rows take it where
		// linesNarrowRows says so (not on a Zen 5). Where the wide rows take
		// the ends kernel instead of the wide ones (skipWide: on a Zen 5),
		// rows of up to 512 bytes of elements of 4 bytes and more are
		// faster by it whole (linesEndsMaxWidth): in process, with and
		// without the lines tables alternated, two runs, float32 planes of
		// 40x40 to 112x112 padded by 1 or 3 took 0.88-1.03x the time
		// without them (median 0.96x), float64 20x20 and 28x28 padded by 1
		// 0.80-0.91x, 56x56 0.93-1.11x; float64 rows of 896 bytes took
		// 1.14-1.26x, int16 rows 0.94-1.13x, and rows with pads past the
		// ends kernel's 16 bytes (float64 reflected by 3) up to 1.36x.
		endsWhole := t.skipWide && t.ends != nil && size >= 4 && lv.outLen*lv.blk*size <= linesEndsMaxWidth
		wideLines := t.wide != nil && inCache && !endsWhole
		dstPlanes, srcPlanes, cubes := 1, 1, 1 // the plan's planes, and its cubes
		for i, up := range p.levels[:n-2] {
			if dstPlanes, srcPlanes = dstPlanes*up.outLen, srcPlanes*up.inLen; i < n-3 {
				cubes *= up.outLen
			}
		}
		if n >= 3 && pl.list != nil && (t.shuffle != nil && linesNarrowRows || wideLines) {
			t.lines = linesOf(pl, lv, p.strides[n-3], p.strides[n-2], p.strides[n-1], size, dstPlanes, srcPlanes)
		}
		t.expand = expandOf(pl, lv, p.strides[n-2], size, dstPlanes)
		if n >= 4 {
			t.cubeExpand = cubeExpandOf(&p.levels[n-3], pl, lv, p.strides[n-3], p.strides[n-2], size, cubes)
		}
		if e := t.expand; e != nil && e.dwords == nil && byteExpandMaxWidth > 0 && pl.blk*size > byteExpandMaxWidth {
			t.expand = nil // the byte kernel, slower there than the others
		}
	}
	if periodic {
		u, units := max(0, n-2), 1 // the plane level, or the whole program
		for _, up := range p.levels[:u] {
			units *= up.outLen
		}
		limit := expandMaxEntries
		if u == 0 {
			limit = denseWholeMaxEntries
		}
		t.dense = denseExpandOf(p.levels[u:], p.strides[u:], size, units, limit)
		if t.dense == nil && n >= 2 {
			for _, up := range p.levels[u : n-1] {
				units *= up.outLen
			}
			t.denseRows = denseExpandOf(p.levels[n-1:], p.strides[n-1:], size, units, expandMaxEntries)
		}
	}
	if t == noTables {
		return &noTables
	}
	return &t
}

// linesEndsMaxWidth is the widest row, in bytes, that the ends kernel
// makes whole rather than leaving its plane's middle to the lines kernel
// (buildTables), if its elements are 4 bytes or wider.
const linesEndsMaxWidth = 512

// rowsBeatWide reports whether rows of form r, width bytes wide at element
// size bytes, with ends table ends (or nil), are among those that the rows
// kernels make faster than the wide kernels where wideInCache is off: rows
// of up to wideSkipMaxWidth bytes whose blocks the rows kernels take, but
// not mirrored rows of elements wider than a byte, nor wrapped rows, that
// the ends kernel does not make (pads over 16 bytes). On a Zen 5, float32,
// float64 and int16 rows reflected by 16 bytes took rowsMirror 1.11-1.24x
// the wide kernels' time (uint8 rows reflected by 16 to 48 bytes
// 0.72-0.80x), and rows wrapped by 17 to 40 bytes took the wide kernel
// 0.70-0.98x the time of rowsWrap (in process, 11 geometries of float64,
// float32, int16 and uint8 planes of 14x14 to 150x150: float64
// [1, 64, 14, 14] wrapped by 3 2.05 -> 1.46x memmove; edge-padded rows
// and mirrored uint8 ones 0.89-1.04x, left to the rows kernels).
func rowsBeatWide(r *rowForm, width, size int, ends *endsTable) bool {
	unit := r.unit * size
	if width > wideSkipMaxWidth || !kernelSize(unit) {
		return false
	}
	_, _, mirrored := r.mirrored()
	_, _, wrapped := r.wrapped()
	if mirrored && unit > 1 || !mirrored && wrapped {
		return ends != nil && endsPays(r, width)
	}
	return true
}
