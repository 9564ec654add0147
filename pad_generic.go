package pad

import (
	"encoding/binary"
	"math"
	"reflect"
	"sync"
	"unsafe"
)

// byteKernels handles elements as raw bytes: every pointer-free type. Its
// fills, copies, mirrored runs and rows go through the byte kernels of the
// dispatch (fillBytes, copyBytes, reverseBytes, rowsConstBytes,
// rowsEdgeBytes), SIMD where the CPU has it.
type byteKernels struct {
	dst, src []byte
	size     int      // bytes per element
	pat      [32]byte // the value: repeated when size is a kernel size, else in pat[:size] (size <= 16)
	pats     [64]byte // pat twice: pat from byte d on is pats[d:d+32] (rowsExpandShifted)
	value    []byte   // the value, when size > 16
	zero     bool     // the value is all zero bytes
	stream   bool     // the run is big enough for streaming stores (streams)
	dense    bool     // src is the plan's input tensor: what lies between its rows is input
	tab      *sizeTables
}

// newByteKernels returns the kernels of a run without tables, from a pool
// that execute returns them to: Run and RunBytes set the plan's
// (Plan.tablesFor). The pool's kernels are zero (execute clears them), so
// that only these fields are stored: the composite literal was built on
// the stack and copied, its 8-byte stores read back 16 bytes at a time.
func newByteKernels(dst, src []byte, size int) *byteKernels {
	k := byteKernelsPool.Get().(*byteKernels)
	k.dst, k.src, k.size, k.zero, k.tab = dst, src, size, true, &noTables
	return k
}

// kernelSize reports whether the byte kernels handle elements of size
// bytes: the sizes whose repetitions fill a 16-byte vector.
func kernelSize(size int) bool { return size <= 16 && 16%size == 0 }

// setValue sets the value from size bytes (none means zero).
func (k *byteKernels) setValue(v []byte) {
	if len(v) == 0 {
		return
	}
	if k.size > 16 {
		k.zero, k.value = allZero(v), v
		return
	}
	copy(k.pat[:], v)
	k.setPattern()
}

// setSmallValue sets the value from size <= 16 bytes at p. The bytes are
// copied into the pattern and go nowhere else, so that the caller's value
// stays on its stack.
func (k *byteKernels) setSmallValue(p unsafe.Pointer) {
	copy(k.pat[:k.size], unsafe.Slice((*byte)(p), k.size))
	k.setPattern()
}

// setPattern repeats the value in pat[:size] over pat, for kernel sizes:
// values of up to 8 bytes as one uint64 stored four times. Doubling copies
// (three memmove calls) cost runs of about 100 ns 7-14% of their time
// (four float32 rows of 100 padded by 2 with a value: 102 -> 95 ns, uint8
// 107 -> 92 ns; 6 alternated runs).
func (k *byteKernels) setPattern() {
	if rep, ok := repeated(k.pat[:k.size]); ok {
		k.zero = rep == 0
		for i := 0; i < len(k.pat); i += 8 {
			binary.LittleEndian.PutUint64(k.pat[i:], rep)
		}
	} else {
		k.zero = allZero(k.pat[:k.size])
		if k.size == 16 {
			copy(k.pat[16:], k.pat[:16])
		}
	}
	copy(k.pats[:32], k.pat[:])
	copy(k.pats[32:], k.pat[:])
}

// repeated returns the little-endian uint64 of v repeated over 8 bytes,
// for v of 1, 2, 4 or 8 bytes.
func repeated(v []byte) (uint64, bool) {
	le := binary.LittleEndian
	switch len(v) {
	case 1:
		return uint64(v[0]) * 0x0101010101010101, true
	case 2:
		return uint64(le.Uint16(v)) * 0x0001000100010001, true
	case 4:
		return uint64(le.Uint32(v)) * 0x0000000100000001, true
	case 8:
		return le.Uint64(v), true
	}
	return 0, false
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// execute runs a plan with these kernels, which it then returns to the
// pool: the program levels, or when the output is larger than the core's
// cache the program inputs if not nil (programFor); the largest outputs
// take streaming stores (streams). A whole output of interior padding,
// or of one plane, may skip the executor (expandDense, onePlane, scatter).
// The kernels reach the executor by pointer: by value, every kernel call
// would copy them (120 bytes), and a pointer handed to the generic
// executor escapes.
func (k *byteKernels) execute(levels, inputs []level, strides []int, workers int, pool *sync.Pool) {
	k.stream = streams(len(k.src), len(k.dst), workers)
	levels = programFor(levels, inputs, len(k.dst), workers, k.stream)
	switch {
	case len(levels) <= 2 && k.denseTakes(k.tab.dense): // the whole output is its unit
		k.expandDense(k.tab.dense, k.dst, k.src, planes{1, len(k.dst), len(k.src)})
	case k.onePlane(levels, strides):
		k.flush()
	case k.scatters(levels, workers):
		k.scatter(levels, strides)
		k.flush()
	default:
		execute(k, levels, strides, workers, pool)
	}
	*k = byteKernels{} // drop the slices
	byteKernelsPool.Put(k)
}

// programFor returns the program a run that writes out bytes on the given
// number of workers takes: inputs, the input program, if inputs is not nil
// and the run streams, or its output is larger than the core's cache
// (pastCache) and copies of finished output do not take REP MOVSB
// (repCopiesOn); else levels.
//
// REP MOVSB writes the copies' lines without reading them first, so that
// repeating a finished block costs less than making it again from the
// input. On a Zen 5, edge padding of every axis (float64 [4,512,512],
// suite case h, [4,256,256] and [4,362,362]; float32 [2,4,128,128]), in
// process, the programs alternated: the output program took 0.99, 0.91,
// 0.95 and 0.76x the input program's time with the caches evicted before
// each run, 0.89, 0.97, 0.89 and 0.81x back to back; peer harness, case h
// 1.04-1.10x memmove (median 1.07, 5 runs) against 1.07-1.15 (1.12, 8
// runs). Streamed output is in memory, not in cache, and vector copies
// read the lines they overwrite: those keep the input program (h with
// vector copies, output out of cache: 0.95x the time with it).
func programFor(levels, inputs []level, out, workers int, stream bool) []level {
	if inputs != nil && (stream || pastCache(out, workers) && !repCopiesOn()) {
		return inputs
	}
	return levels
}

// onePlane makes the output of a program of two levels (a matrix, after
// the plan merged its axes) as one plane (planes), where its rows are
// padded at both ends of the row axis (three segments or more), are at
// most onePlaneMaxRows, and take a shuffle kernel of the level in use
// (with VBMI rows of up to 128 bytes, at the AVX2 level the narrow kernel's
// of up to 32); it reports whether it did. Its row list then makes the
// whole output in one call of the kernel (planesByList), pad rows with the
// others, where the executor takes a kernel call per segment and the
// calls' fixed cost is most of the time: a float32 [20, 20] edge-padded by
// 1 118 -> 98 ns, uint8 [71, 15] by 3 symmetric 184 -> 110 ns. Past
// onePlaneMaxRows rows of up to 40 bytes lost to the executor's row group
// kernels (float32 [108, 4] reflected to [110, 10]: 1.10x the time), as
// did rows padded at one end only (two calls either way; uint8 [48, 10]
// symmetric to [49, 12]: 1.24x), and at the AVX2 level rows no shuffle
// kernel takes (int16 [30, 55] symmetric-padded: 2.6x, a rows call a run).
func (k *byteKernels) onePlane(levels []level, strides []int) bool {
	if !onePlaneFits(levels, k.tab) {
		return false
	}
	pl := &levels[0]
	return k.planes(pl, &levels[1], 1, 0, pl.outLen*pl.blk, 0, 0, strides[0], strides[1])
}

// onePlaneMaxRows bounds the rows of onePlane's outputs (a variable for
// the tests: 0 sends every output to the executor).
var onePlaneMaxRows = 80

// onePlaneFits reports whether onePlane takes a program with tables tab.
func onePlaneFits(levels []level, tab *sizeTables) bool {
	if len(levels) != 2 || tab.shuffle == nil || !shuffleTakes(tab.shuffle) {
		return false
	}
	pl := &levels[0]
	return len(pl.segs) >= 3 && pl.outLen <= onePlaneMaxRows && pl.list != nil
}

// copyRowsMaxPlanes is the most planes of a batch whose pad rows planes
// copies from finished rows (finishedRow), a copy each (copyEach); more
// make each by a rows call for all of them (planesAsRows), which a copy
// each does not beat. At the AVX2 level, in process (a copy each against
// one rows call, copiesDst, alternated 9 rounds), planes of 20 to 60 rows
// of 110 to 176 bytes reflected or symmetric took 0.79-0.93x the time with
// copies for 2 and 3 planes, 0.87-0.99x for 4 to 6, 0.99-1.05x for 8 and
// 1.02-1.14x for 12 and 16.
const copyRowsMaxPlanes = 6

// finishedRow reports whether the one row of run r is a copy of a row that
// the runs made before it (done) made from the same input row, and which
// row of the plane that is. planes copies such rows (the pad rows of
// reflect and symmetric padding, runsOf's one-row runs of mirrored
// segments, and edge or wrap padding by one row) in batches of a few
// planes, rather than make them from the input again at the cost of a
// rows call each. In process (with and without alternated 9 rounds), 200
// random planes (1 to 300 of 2 to 120 rows of up to 300 elements, every
// mode, 0.5 KiB to 2 MiB out) took at the AVX2 level a geometric mean of
// 0.97x the time for reflect padding and 0.98x for symmetric, the others
// unchanged (float32 [2, 20, 113] reflected by 2 and 3 rows 0.84-0.85x in
// reruns, int16 [2, 5, 64] 0.86x); with VBMI, whose shuffle kernels make
// most such planes in one pass over their row list, 0.99x.
func finishedRow(done []rowRun, r rowRun) (row int, ok bool) {
	if r.n != 1 {
		return 0, false
	}
	for _, d := range done {
		if !d.fill && d.step == 1 && d.src <= r.src && r.src < d.src+d.n {
			return d.at + r.src - d.src, true
		}
	}
	return 0, false
}

var byteKernelsPool = sync.Pool{New: func() any { return new(byteKernels) }}

// copyDirection: away from REP MOVSB's slow distances (repDirection);
// streamed runs copy no finished block.
func (k *byteKernels) copyDirection(blk int) int {
	if forcedCopyDirection != 0 || k.stream {
		return forcedCopyDirection
	}
	return repDirection(blk * k.size)
}

// forcedCopyDirection, when not 0, is every run's copyDirection: tests
// set it to run the forward and backward forms of every level.
var forcedCopyDirection = 0

// flush: the streaming stores of the stream kernels are weakly ordered.
func (k *byteKernels) flush() {
	if k.stream {
		storeFence()
	}
}

func (k *byteKernels) fill(off, n int) {
	b := k.dst[off*k.size : (off+n)*k.size]
	switch {
	case k.zero:
		clear(b)
	case kernelSize(k.size):
		fillBytes(b, &k.pat)
	case k.size <= 16:
		fillPattern(b, k.pat[:k.size])
	default:
		fillPattern(b, k.value)
	}
}

// fills fills n elements at off and at count-1 more offsets stride
// elements apart (the pad rows of a batch of planes): by one rows call,
// the planes its rows, where the kernels take the value, since a fill
// call a plane cost most of the time of planes of short rows. At the AVX2
// level (in process, alternated): int16 and uint8 [1, 512, 7, 7] padded by
// 1 with 3s 0.31-0.35x the time, uint8 [1, 128, 28, 28] by 2 0.71x; with
// zeros 0.48-0.70x and 0.82x against a clear a plane, which stays faster
// where a plane's zero fill is longer than zeroFillRowsMax.
func (k *byteKernels) fills(off, n, count, stride int) {
	size := k.size
	if count > 1 && kernelSize(size) && len(k.src) > 0 && (!k.zero || n*size <= zeroFillRowsMax) {
		rowsConstBytes(k.dst[off*size:], k.src, onePlane, count, stride*size, 0, n*size, 0, 0, &k.pat, k.stream)
		return
	}
	fillEach(k, off, n, count, stride)
}

// zeroFillRowsMax is the longest zero fill, in bytes, that fills makes by
// the rows kernel rather than by a clear a plane. It was rowsConst's fill
// classes' 64 bytes. In process (with and without alternated 7 rounds),
// 82 random zero-padded planes with pad rows of 48 to 400 bytes took
// 0.55-1.09x the time with 256 at the default level, median 0.99x (uint8
// [1284, 1, 47] padded to [1284, 3, 53]: 3.5 -> 2.0x memmove; the one at
// 1.09x took 0.99x in two reruns), 0.84-1.12x at the AVX2 level, median
// 1.00x (over 1.04x only planes whose fills the bound leaves alone); 60
// planes with fills of 100 to 600 bytes (uint8 [1, 32, 112, 112] padded by
// 2 among them) 0.85-1.09x with 256 and 0.86-1.04x with 512, the gains
// all at fills of at most 256 bytes.
const zeroFillRowsMax = 256

// copiesDst: one call of the constant rows kernel, the copies its rows'
// middles, for copies of at most copiesRowsMax bytes.
func (k *byteKernels) copiesDst(off, from, n, count, stride int) {
	size := k.size
	if count > 1 && kernelSize(size) && n*size <= copiesRowsMax && !k.stream {
		rowsConstBytes(k.dst[off*size:], k.dst[from*size:], onePlane, count, stride*size, stride*size, 0, n*size, 0, &k.pat, false)
		return
	}
	copyEach(k, off, from, n, count, stride)
}

// copiesRowsMax bounds the copies copiesDst makes by the rows kernel. In
// process (with and without alternated 7 rounds), 85 edge, reflect and
// wrap geometries that go across (PERFORMANCE.md, "Small sub-tensors,
// segment by segment") took 0.61-1.23x the time with 2048 bytes at the
// default level (the one over 1.02x took 0.97-1.00x in two reruns) and
// 0.65-1.02x at the AVX2 level, median 0.99-1.00x (float64 [130, 2, 6, 3]
// wrapped 3.0 -> 1.9x memmove); with 512 fewer
// gained (int16 [62, 2, 2, 101] reflected 0.90x against 0.76x), and with
// no bound copies of a few KiB took up to 1.11x (float32 [14, 4, 45, 7]
// wrapped: 6 KiB a sub-tensor), where copy's memmove is as fast.
const copiesRowsMax = 2048

// copyEach makes copiesDst's copies a copyDst call each.
func copyEach[K interface {
	copyDst(off, from, count, width, step int)
}](k K, off, from, n, count, stride int) {
	for p := range count {
		k.copyDst(off+p*stride, from+p*stride, 1, n, n)
	}
}

// fillEach fills n elements at off and at count-1 more offsets stride
// elements apart, a fill call each.
func fillEach[K interface{ fill(off, n int) }](k K, off, n, count, stride int) {
	for p := range count {
		k.fill(off+p*stride, n)
	}
}

// acrossBytes bounds the output of the sub-tensors the executor makes
// across at once. Batches of 32 KiB took 0.79x the time of one sub-tensor
// after the other (geometric mean of 148 geometries that go across),
// 64 KiB 0.73x and 128 KiB 0.73x with fewer slower (PERFORMANCE.md).
const acrossBytes = 128 << 10

// acrossBatch: streamed outputs keep one sub-tensor after the other, since
// streaming stores want whole lines written in order.
func (k *byteKernels) acrossBatch(blk int) int {
	if k.stream {
		return 1
	}
	return acrossBytes / max(blk*k.size, 1)
}

func (k *byteKernels) copySrc(off, srcOff, count, width, step int) {
	k.copyUnits(k.src, off, srcOff, count, width, step)
}

func (k *byteKernels) copyDst(off, from, count, width, step int) {
	k.copyUnits(k.dst, off, from, count, width, step)
}

// copyUnits copies count units of width elements, unit t from src element
// srcOff+t*step to dst element off+t*width.
func (k *byteKernels) copyUnits(src []byte, off, srcOff, count, width, step int) {
	size := k.size
	w := width * size
	d := off * size
	s := srcOff * size
	switch {
	case step == width:
		copyBytes(k.dst[d:d+count*w], src[s:s+count*w], k.stream)
	case step == -width && kernelSize(w):
		first := s - (count-1)*w // the last unit, lowest in memory
		reverseBytes(k.dst[d:d+count*w], src[first:s+w], w)
	default:
		st := step * size
		for t := 0; t < count; t++ {
			copy(k.dst[d:d+w], src[s:s+w])
			d += w
			s += st
		}
	}
}

func (k *byteKernels) rows(lv *level, count, off, dstStride, srcOff, srcStride, stride int) bool {
	if srcStride < 0 {
		for t := 0; t < count; t++ {
			k.row(lv, off+t*dstStride, srcOff+t*srcStride, stride)
		}
		return true
	}
	k.rowsPlanes(lv, onePlane, count, off, dstStride, srcOff, srcStride, stride)
	return true
}

// planeGroups makes the whole groups of the planes pl (byte strides) by
// the group tables cg and bg (chunkGroupOf, blockGroupOf; either may be
// nil) where the level in use has their kernel and the planes lie as the
// tables assume, and returns the number of planes it made.
func (k *byteKernels) planeGroups(d, s []byte, pl planes, cg *chunkGroup, bg *blockGroup) int {
	if g := cg; g != nil {
		if gs, ok := g.of(pl, g.width); ok && planeChunksBytes(d, s, gs, &g.chunkTable) {
			return gs.n * g.planes
		}
	}
	if g := bg; g != nil {
		if gs, ok := g.of(pl, g.width); ok && planeBlocksBytes(d, s, gs, &g.blockTable, k.zero, &k.pat) {
			return gs.n * g.planes
		}
	}
	return 0
}

// planes makes n planes of the level pl (rows of the innermost level lv),
// plane p at dst offset off+p*dstPlane from the input plane at
// srcOff+p*srcPlane: by the planes' tables (planeGroups; planeTable,
// chunkTableOf, blockTableOf) when the plan has them, whatever the plane
// level's segments, else by the plane's row runs, if it has them: one
// rows call per run for a batch of planes. A batch holds about chunkBytes
// of output, so that the runs that read a plane's edge rows again find
// them in cache; planes from one input plane (srcPlane 0) are one batch,
// which the wrappers make chunk by chunk of input (rowChunks).
func (k *byteKernels) planes(pl, lv *level, n, off, dstPlane, srcOff, srcPlane, rowStride, stride int) bool {
	if srcPlane < 0 {
		return false
	}
	// The planes' tables, whole planes at a time.
	d, s, ps := k.dst[off*k.size:], k.src[srcOff*k.size:], planes{n, dstPlane * k.size, srcPlane * k.size}
	// Groups of planes first, the planes past the last group as below.
	if made := k.planeGroups(d, s, ps, k.tab.chunkGroups, k.tab.blockGroups); made > 0 {
		if n -= made; n == 0 {
			return true
		}
		off, srcOff = off+made*dstPlane, srcOff+made*srcPlane
		d, s, ps = k.dst[off*k.size:], k.src[srcOff*k.size:], planes{n, dstPlane * k.size, srcPlane * k.size}
	}
	if t := k.tab.expand; t != nil && t.plane <= planeExpandMax && expandsRows(t) && k.planesExpand(pl, lv, n, off, dstPlane, srcOff, srcPlane, rowStride, stride) {
		return true
	}
	if t := k.tab.plane; t != nil && rowsShuffleBytes(d, s, onePlane, n, ps.dst, ps.src, t.width, t.mid, &t.tab, &k.pat) ||
		k.tab.chunks != nil && planeChunksBytes(d, s, ps, k.tab.chunks) ||
		k.tab.blocks != nil && planeBlocksBytes(d, s, ps, k.tab.blocks, k.zero, &k.pat) {
		return true
	}
	if k.denseTakes(k.tab.dense) {
		k.expandDense(k.tab.dense, d, s, ps)
		return true
	}
	// Planes that take the value only in their rows' pads go by the AVX2
	// blocks kernel where the level has none, rather than by the shuffle
	// kernel a row at a time (planesByList); those with pad rows too
	// where the level's kernels decline them (the expand kernel wants dst
	// on a 64-byte boundary), rather than a run of rows at a time.
	byList := pl.list != nil
	if byList && k.valueBlocks(d, s, ps) ||
		pl.runs != nil && (k.planesByList(pl, lv, n, off, dstPlane, srcOff, srcPlane, rowStride, stride) ||
			k.planesPadded(pl, lv, n, off, dstPlane, srcOff, srcPlane, rowStride, stride)) ||
		!byList && k.valueBlocks(d, s, ps) {
		return true
	}
	if pl.runs == nil {
		return false // rows made a plane at a time, by the level's segments
	}
	per := max(1, chunkBytes/max(dstPlane*k.size, 1))
	if srcPlane == 0 {
		per = n
	}
	middle := k.linesRun(pl, rowStride)
	for p0 := 0; p0 < n; p0 += per {
		m := min(per, n-p0)
		o, so := off+p0*dstPlane, srcOff+p0*srcPlane
		for i, r := range pl.runs {
			at := o + r.at*pl.blk
			if r.fill {
				k.fills(at, r.n*pl.blk, m, dstPlane)
				continue
			}
			if m <= copyRowsMaxPlanes && !k.stream {
				if from, ok := finishedRow(pl.runs[:i], r); ok {
					copyEach(k, at, o+from*pl.blk, pl.blk, m, dstPlane)
					continue
				}
			}
			size := k.size
			if i == middle && rowsLinesBytes(k.dst[at*size:], k.src[(so+r.src*rowStride+lv.row.src*stride)*size:],
				planes{m, dstPlane * size, srcPlane * size}, r.n, k.tab.lines) {
				continue
			}
			k.rowsPlanes(lv, planes{m, dstPlane, srcPlane}, r.n, at, pl.blk, so+r.src*rowStride, r.step*rowStride, stride)
		}
	}
	return true
}

// cubes makes cubes of the n at off (srcOff): by the expand kernel from
// the first on a line where the plan has its table (cubeExpandOf), else
// the first ones by the plan's cube tables (cubeTables), groups first,
// where the kernel is there and the cubes lie as the tables assume. It
// returns the cubes it made, from first to end.
func (k *byteKernels) cubes(n, off, dstCube, srcOff, srcCube int) (first, end int) {
	if srcCube < 0 || k.stream {
		return 0, 0
	}
	size := k.size
	d, s, ps := k.dst[off*size:], k.src[srcOff*size:], planes{n, dstCube * size, srcCube * size}
	if t := k.tab.cubeExpand; t != nil && n >= 2 && expandsRows(t) {
		if head := expandAligned(d, s, ps, t.mid, 0, t, &k.pats); head >= 0 {
			return head, n
		}
	}
	t := k.tab.cubes
	if t == nil {
		return 0, 0
	}
	made := k.planeGroups(d, s, ps, t.chunkGroups, t.blockGroups)
	if made == n {
		return 0, n
	}
	d, s, rest := d[made*ps.dst:], s[made*ps.src:], planes{n - made, ps.dst, ps.src}
	if t.chunks != nil && planeChunksBytes(d, s, rest, t.chunks) ||
		t.blocks != nil && planeBlocksBytes(d, s, rest, t.blocks, k.zero, &k.pat) {
		return 0, n
	}
	return 0, made
}

// valueBlocks makes the planes pl (byte strides) by the plan's blocks table
// if it is one the levels without a blocks kernel take by the AVX2 level's
// where their own kernels decline (avx2Fallback), and reports whether it
// did.
func (k *byteKernels) valueBlocks(d, s []byte, pl planes) bool {
	t := k.tab.blocks
	return t != nil && t.avx2Fallback && planeBlocksAVX2Bytes(d, s, pl, t, k.zero, &k.pat)
}

// linesRun returns the index in pl.runs of the run of wide rows that the
// lines kernel makes, the middle of pl's row list, or -1. The wide
// kernels make a row at a time and pay at each row's ends: suite case b's
// shape in uint8 (230-byte reflect rows) took 5 ns a row in L2 by the
// aligned kernel. Narrow rows take the lines kernel with their list
// (planesByList).
func (k *byteKernels) linesRun(pl *level, rowStride int) int {
	g, l := k.tab.lines, pl.list
	if g == nil || k.tab.wide == nil || k.stream || l == nil || rowStride <= 0 || g.srcStride != rowStride*k.size {
		return -1
	}
	for i, r := range pl.runs {
		if !r.fill && r.step == 1 && r.at == l.run0 && r.n == l.run1-l.run0 {
			if r.n < linesRunMin {
				return -1
			}
			return i
		}
	}
	return -1
}

// linesRunMin is the fewest rows of a plane's middle run that the lines
// kernel makes (linesRun): the kernel takes a call a plane (linesMiddles),
// which shorter runs do not repay against the rows kernels' one call for
// every plane. With VBMI, in process (with and without the bound
// alternated 7 rounds, twice), wide rows in planes of 2 rows took
// 0.75-0.87x the time (float64 [108, 2, 54] edge-padded to [108, 4, 59]
// 2.33 -> 1.82x memmove, float64 [28, 2, 101] reflected 2.2 -> 1.6x), 3
// rows 0.96-0.97x; with a bound of 8, runs of 4 to 7 rows 0.86-1.05x
// (noise of about 5%).
const linesRunMin = 4

// rowChunksPlaneMin is the fewest input rows of planes whose rows have a
// row chunks table (rowChunksOf) that planesByList leaves to the planes'
// runs, so that the chunks kernel makes their long run many rows a block
// where the shuffle kernel's pass over the row list makes a row a store:
// float32 rows of 2 elements edge-padded to 3 take 0.36 ns a row so. With
// VBMI, in process (with and without it alternated 7 rounds), 120 random
// planes of 20 to 1000 rows of up to 24 bytes out, every type and mode:
// planes of at least 128 rows 0.31-1.04x the time, median 0.99x (uint8
// [42, 937, 4] wrapped to [42, 937, 7] 6.3 -> 2.0x memmove, float32 [95,
// 258, 1] wrapped 5.5 -> 2.0x; one at 1.10-1.14x in reruns, float64 [39,
// 205, 2] reflected, where [43, 187, 2] took 0.85x), planes of 28 to 105
// rows 1.09-2.13x, whose runs cost a call a plane each.
const rowChunksPlaneMin = 128

// planesByList makes the planes as planes does, each in one pass of the
// shuffle kernel over its list of input rows (pl.list), if the level in
// use has the kernel and lv's rows have a shuffle table; it reports
// whether it did. The runs would take one call each per batch of planes
// and write a plane's pad rows apart from its other rows, except planes of
// at least rowChunksPlaneMin rows whose rows have a row chunks table.
func (k *byteKernels) planesByList(pl, lv *level, n, off, dstPlane, srcOff, srcPlane, rowStride, stride int) bool {
	size, r := k.size, &lv.row
	if pl.list == nil || rowStride < 0 || !kernelSize(size) {
		return false
	}
	if k.tab.rowChunks != nil && !k.stream && pl.runs != nil && pl.inLen >= rowChunksPlaneMin {
		return false // the runs, the long one by the chunks kernel (rowPlanes)
	}
	t, t256 := k.tab.shuffle, k.tab.shuffle256
	if t == nil && (t256 == nil || k.stream) {
		return false
	}
	dst, src := k.dst[off*size:], k.src[(srcOff+r.src*stride)*size:]
	width, mid := (r.left+r.mid+r.right)*size, r.mid*size
	ps, dstStride, srcStride := planes{n, dstPlane * size, srcPlane * size}, pl.blk*size, rowStride*size
	if t == nil {
		// Rows of 129 to 384 bytes, a plane in one pass where the rows
		// and lines kernels take a call per run or plane.
		return rowListShuffle256Bytes(dst, src, ps, pl.list, dstStride, srcStride, width, mid, t256)
	}
	if !k.stream && rowListLinesBytes(dst, src, ps, pl.list, dstStride, srcStride, width, mid, k.tab.lines, t, &k.pat) {
		return true
	}
	if !k.stream && k.planesByGroups(pl.list, dst, src, k.src[srcOff*size:], ps, dstStride, srcStride, width, mid) {
		return true
	}
	return rowListShuffleBytes(dst, src, ps, pl.list, dstStride, srcStride, width, mid, t, &k.pat)
}

// rowGroupsRunMin is the fewest rows of a plane's run that planesByGroups
// makes by groups. With VBMI, in process (with and without groups
// alternated 7 rounds), random planes of rows of 17 to 48 bytes (every
// type, edge, reflect and wrap, 40 and 200 KB out) took: with runs of 48
// to 220 rows, 0.54-1.02x the time, medians 0.76-0.83 (uint8 [123, 102,
// 21] wrapped to [123, 103, 24] 1.84 -> 1.18x memmove); 32 to 47 rows,
// 0.61-1.13x, median 0.95, the slower ones 40 KB of 20 to 40 planes; 20
// to 31 rows 0.90-1.18x; fewer rows up to 1.47x, where the three calls'
// costs a plane outweigh the stores the groups save. At 2 MB out, 0.50 to
// 1.0x (reruns).
const rowGroupsRunMin = 32

// rowGroupsCallMin is the fewest rows of runs, over its planes, that a
// call of planesByGroups makes by groups: the executor passes the planes
// of a cube of rank-4 plans a call at a time, and the three calls cost
// more than a few hundred rows save. In process, as above, random rank-3
// and rank-4 plans (282 that groups change) took a geometric mean of
// 0.93x the time with and without this bound, but 29 above 1.05x without
// it (up to 1.25x: uint8 [21, 6, 61, 28] edge-padded, calls of 9 planes of
// 61 rows, 1.18-1.23x) and 6 with it (up to 1.14x, 1.0-1.1x in reruns);
// with 2048, 0.95x.
const rowGroupsCallMin = 1024

// planesByGroups makes the planes ps (byte strides) as planesByList does,
// the run of their list l a group of rows at a time where the plan has a
// row group table for it (rowGroupOf), the level its kernel, the run at
// least rowGroupsRunMin rows and the planes' runs rowGroupsCallMin: per
// batch of planes, the groups in one call, then the rows before them and
// the rows after them by their list, a call each, where a pass over the
// list would make a row a store. It reports whether it did. srcRows is
// src from the planes' first input row, before any crop.
func (k *byteKernels) planesByGroups(l *rowList, dst, src, srcRows []byte, ps planes, dstStride, srcStride, width, mid int) bool {
	g, t, run := k.tab.rowGroups, k.tab.shuffle, l.run1-l.run0
	if g == nil || t == nil || run < rowGroupsRunMin || ps.n*run < rowGroupsCallMin ||
		dstStride*g.rows != g.width || srcStride != g.srcStride ||
		l.planeBytes(dstStride, width) > chunkBytes { // as rowListBatches, so that the lists' calls below make their rows
		return false
	}
	n := run / g.rows
	end := l.run0 + n*g.rows
	head := rowList{idx: l.idx[:l.run0], max: l.max}
	tail := rowList{idx: l.idx[end:], max: l.max, run1: l.run1 - end}
	per := max(1, chunkBytes/max(ps.dst, 1))
	for p := 0; p < ps.n; p += per {
		b := planes{min(per, ps.n-p), ps.dst, ps.src}
		d, s := dst[p*ps.dst:], src[p*ps.src:]
		if !rowGroupsBytes(d[l.run0*dstStride:], srcRows[p*ps.src+int(l.idx[l.run0])*srcStride:], b, n, g, &k.pat) {
			return false // the level has no such kernel: none was made
		}
		if l.run0 > 0 {
			rowListShuffleBytes(d, s, b, &head, dstStride, srcStride, width, mid, t, &k.pat)
		}
		if end < len(l.idx) {
			rowListShuffleBytes(d[end*dstStride:], s, b, &tail, dstStride, srcStride, width, mid, t, &k.pat)
		}
	}
	return true
}

// planesPadded makes the planes as planes does when their row runs are
// pad rows of the value around one run of consecutive input rows (constant
// padding), each plane in one pass of the aligned kernel, its pad rows
// included, if the level in use has that kernel for these rows; it reports
// whether it did. The runs would fill each plane's pad rows apart.
func (k *byteKernels) planesPadded(pl, lv *level, n, off, dstPlane, srcOff, srcPlane, rowStride, stride int) bool {
	size, r := k.size, &lv.row
	if !kernelSize(size) || rowStride < 0 {
		return false
	}
	top, bottom, run, ok := padRows(pl.runs, pl.outLen)
	if !ok {
		return false
	}
	width := pl.blk * size
	dst, src := k.dst[off*size:], k.src[(srcOff+run.src*rowStride+r.src*stride)*size:]
	if k.shifts(r, rowStride*size, width) &&
		rowsShiftedBytes(dst, src, planes{n, dstPlane * size, srcPlane * size}, run.n, width, r.left*size, r.mid*size, top*width, bottom*width, &k.pat) {
		return true
	}
	if k.planesExpand(pl, lv, n, off, dstPlane, srcOff, srcPlane, rowStride, stride) {
		return true
	}
	if k.tab.wide == nil || k.tab.skipWide {
		return false
	}
	return rowsAlignedPads(dst, src, planes{n, dstPlane * size, srcPlane * size}, run.n, rowStride*size, width, r.mid*size, r.left*size,
		top*width, bottom*width, k.tab.wide, &k.pat, k.stream)
}

// planeExpandMax is the largest plane, in bytes, that the expand kernel
// makes before the planes' shuffle table (planeTable) does, a plane a
// row, a store each, at the levels where it makes runs of rows
// (expandsRows). With VBMI, in process (the two alternated 7 rounds),
// constant planes of 18 to 25 bytes took 0.65-0.90x the time (uint8
// [11111, 3, 1] padded to [11111, 6, 3] with 3s 2.35 -> 1.52x memmove),
// planes of 27 to 32 bytes 0.96-1.09x, of 36 to 128 bytes up to 1.56x.
const planeExpandMax = 24

// streamExpandMaxPlane is the largest plane, in bytes, that planesExpand
// makes in a streamed run (the expand kernel's ordinary stores against the
// executor's streaming rows). In process, the two alternated 7 rounds on
// batches of 10 to 32 MiB out: uint8 [512, 256, 14, 14] padded by 1
// (256-byte planes) 3.25 -> 1.29 ms, float32 [64, 512, 7, 7] (324 bytes)
// 0.86 -> 0.27 ms, float32 [64, 256, 14, 14] (1 KiB) 0.77x the time in a
// first round; planes of 1.8 to 27 KiB 0.76-1.33x the time, none
// significant on this noisy VM (p >= 0.1).
const streamExpandMaxPlane = 1 << 10

// planesExpand makes the planes as planes does by the expand kernel
// (rowsExpandPads), when their row runs are pad rows of the value around
// one run of consecutive input rows; it reports whether it did. The
// kernel's table starts on a line: planes before the first plane that
// does (up to 63, where dst or a pad plane before them puts them off a
// line) go by planes without it. With dst 16 bytes off a line, in process
// (the two alternated 7 rounds), 50 random conv-padded planes of 49 to
// 4356 bytes took 0.56-1.08x the time, geometric mean 0.87 (float32
// [1, 617, 5, 5] padded by 2 1.83 -> 1.08x memmove); 40 planes behind a
// pad plane, dst on a line, 0.86 (max 1.07).
func (k *byteKernels) planesExpand(pl, lv *level, n, off, dstPlane, srcOff, srcPlane, rowStride, stride int) bool {
	size, r := k.size, &lv.row
	_, _, run, ok := padRows(pl.runs, pl.outLen)
	if !ok || rowStride < 0 || k.stream && dstPlane*size > streamExpandMaxPlane {
		return false
	}
	head := expandAligned(k.dst[off*size:], k.src[(srcOff+run.src*rowStride+r.src*stride)*size:], planes{n, dstPlane * size, srcPlane * size}, rowStride*size, 0, k.tab.expand, &k.pats)
	if head < 0 {
		return false
	}
	if head > 0 {
		k.planes(pl, lv, head, off, dstPlane, srcOff, srcPlane, rowStride, stride)
	}
	return true
}

// denseTakes reports whether the level in use makes units of interior
// padding by the expand kernel with table t (denseExpandOf; nil: none),
// in streamed runs too: there the executor's streaming stores took 2.2 to
// 3.4x the time of the kernel's ordinary ones (float32 [8, 64, 56, 56]
// dilated by 1, 24 MiB out: 2.80 against 1.20 ms, memmove 1.2-1.3 ms).
func (k *byteKernels) denseTakes(t *expandTable) bool {
	return t != nil && k.dense && expandTakes(t)
}

// expandDense makes the units of table t (denseTakes) at d from s, pl
// their byte strides: by the expand kernel, in calls of at most t.most
// units (one call, for a periodic table) where they follow each other in
// dst and src, else a unit a call; each call from dst's first line boundary
// on (rowsExpandShifted where dst is off a line), and a call the kernel
// declines by expandGo.
func (k *byteKernels) expandDense(t *expandTable, d, s []byte, pl planes) {
	if pl.dst != t.plane || pl.src != t.mid {
		for p := range pl.n {
			k.expandDense(t, d[p*pl.dst:], s[p*pl.src:], planes{1, t.plane, t.mid})
		}
		return
	}
	per := pl.n
	if t.most > 0 {
		per = t.most
	}
	for p := 0; p < pl.n; p += per {
		b := planes{min(per, pl.n-p), pl.dst, pl.src}
		dst, src := d[p*pl.dst:][:b.n*b.dst], s[p*pl.src:][:b.n*b.src]
		if !rowsExpandPads(dst, src, b, t.mid, t, &k.pat) && !rowsExpandShifted(dst, src, b, t.mid, t, &k.pats) {
			expandGo(dst, src, t, &k.pat)
		}
	}
}

// padRows reports whether the runs of a plane of rows rows are fills
// around one run of consecutive input rows, and how many rows they fill
// above (top) and below (bottom) it.
func padRows(runs []rowRun, rows int) (top, bottom int, run rowRun, ok bool) {
	filled, found := 0, false
	for _, r := range runs {
		switch {
		case r.fill:
			filled += r.n
		case found || r.step != 1:
			return 0, 0, rowRun{}, false
		default:
			run, found = r, true
		}
	}
	if !found || filled == 0 || filled+run.n != rows {
		return 0, 0, rowRun{}, false
	}
	return run.at, rows - run.at - run.n, run, true
}

// shifts reports whether rows of form r, srcStride bytes apart in the
// input and width bytes wide in dst, may be made by rowsShiftedBytes: rows
// of constant padding (a pattern the kernels take) as wide as their input
// stride, from a contiguous input, in an output that does not stream.
func (k *byteKernels) shifts(r *rowForm, srcStride, width int) bool {
	return r.kind == rowConst && (k.zero || kernelSize(k.size)) && srcStride == width && k.dense && !k.stream
}

// planesAsRowsMax is the most rows of each plane that rowsPlanes makes
// as rows of their own across the planes (planesAsRows); 0: none.
var planesAsRowsMax = 4

// planesAsRows reports whether rowsPlanes makes count rows in each of the
// planes pl (in bytes) by the rows kernels (rowsConst, rowsEdge,
// rowsMirror, rowsWrap), whose calls take one plane's rows, as count runs
// of pl.n rows, one row of each plane, rather than a run of count rows a
// plane: where the rows are a few a plane (the pad rows of edge, reflect
// and wrap padding, one to planesAsRowsMax input rows a plane, or the
// middles of planes of up to that many rows), so that they take a few
// calls instead of one or more a plane. Not where planes lie a multiple of
// 1 KiB apart in dst or src, whose rows would all fall in a few sets of
// the L1 cache (float32 [1, 75, 28, 28] wrapped by 2, planes 4 KiB apart:
// 1.25x the time), nor in a streamed output, whose constant rows take the
// streaming aligned kernel where the rows of a call follow each other. At
// the AVX2 level on a Zen 5 (GODEBUG=cpu.avx512f=off), 348 planes of about
// 300 KiB out with and without it alternated in one process (uint8,
// int16, float32 and float64 planes of 2x2 to 56x56, every mode, pads of 1
// to 3): float64 [1, 96, 14, 14] reflected by 3 (576 calls of one row)
// 0.65x the time, edge-padded by 3 0.79x, float64 28x28 and 30x30 planes
// 0.80-0.85x, uint8 and int16 constant 2x2 and 3x3 planes 0.44-0.58x, none
// slower beyond noise; at the AVX-512 level 0.83-1.0x, the median 1.00;
// without VBMI (GODEBUG=cpu.avx512vbmi=off) 0.40-1.0x, none slower. Up to
// 16 rows took up to 1.9x the time on constant planes.
func (k *byteKernels) planesAsRows(pl planes, count int) bool {
	const kib = 1 << 10
	return count <= planesAsRowsMax && count < pl.n && !k.stream &&
		pl.dst%kib != 0 && pl.src%kib != 0
}

// rowsPlanes makes count rows of the innermost level lv in each of pl.n
// planes (pl in elements): row t of plane p at dst offset
// off+p*pl.dst+t*dstStride from the input row at
// srcOff+p*pl.src+t*srcStride (srcStride >= 0).
func (k *byteKernels) rowsPlanes(lv *level, pl planes, count, off, dstStride, srcOff, srcStride, stride int) {
	if !k.rowsExpandRows(lv, pl, count, off, dstStride, srcOff, srcStride, stride) {
		k.rowsPlanesBy(lv, pl, count, off, dstStride, srcOff, srcStride, stride)
	}
}

// rowsPlanesBy makes rowsPlanes's rows by the rows, shuffle and row table
// kernels.
func (k *byteKernels) rowsPlanesBy(lv *level, pl planes, count, off, dstStride, srcOff, srcStride, stride int) {
	size, r := k.size, &lv.row
	if r.kind == rowGeneral && k.denseTakes(k.tab.denseRows) {
		d, s := k.dst[off*size:], k.src[srcOff*size:]
		for p := range pl.n {
			k.expandDense(k.tab.denseRows, d[p*pl.dst*size:], s[p*pl.src*size:], planes{count, dstStride * size, srcStride * size})
		}
		return
	}
	if g := k.tab.generalRows; g != nil {
		d, s, pb, ds, ss := k.dst[off*size:], k.src[srcOff*size:], planes{pl.n, pl.dst * size, pl.src * size}, dstStride*size, srcStride*size
		if g.tab != nil && rowsShuffleBytes(d, s, pb, count, ds, ss, g.width, g.mid, g.tab, &k.pat) ||
			g.tab256 != nil && !k.stream && rowsShuffle256Bytes(d, s, pb, count, ds, ss, g.width, g.mid, g.tab256) {
			return
		}
	}
	if r.kind == rowGeneral || r.kind == rowConst && !k.zero && !kernelSize(size) {
		for p := range pl.n {
			for t := 0; t < count; t++ {
				k.row(lv, off+p*pl.dst+t*dstStride, srcOff+p*pl.src+t*srcStride, stride)
			}
		}
		return
	}
	dst, src := k.dst[off*size:], k.src[(srcOff+r.src*stride)*size:]
	left, mid, right := r.left*size, r.mid*size, r.right*size
	ds, ss := dstStride*size, srcStride*size
	pb := planes{pl.n, pl.dst * size, pl.src * size}
	if done := k.rowPlanes(dst, k.src[srcOff*size:], pb, count, ds, ss); done > 0 {
		if done < count {
			k.rowsPlanes(lv, pl, count-done, off+done*dstStride, dstStride, srcOff+done*srcStride, srcStride, stride)
		}
		return
	}
	if k.shifts(r, ss, ds) && ds == left+mid+right && rowsShiftedBytes(dst, src, pb, count, ds, left, mid, 0, 0, &k.pat) {
		return
	}
	if kernelSize(size) {
		if t := k.tab.shuffle; t != nil && rowsShuffleBytes(dst, src, pb, count, ds, ss, left+mid+right, mid, t, &k.pat) {
			return
		}
		if t := k.tab.shuffle256; t != nil && !k.stream && rowsShuffle256Bytes(dst, src, pb, count, ds, ss, left+mid+right, mid, t) {
			return
		}
		if t := k.tab.wide; t != nil && !k.tab.skipWide && rowsWideBytes(dst, src, pb, count, ds, ss, left+mid+right, mid, left, t, &k.pat, k.stream) {
			return
		}
		if t := k.tab.ends; t != nil && endsPays(r, left+mid+right) && rowsEndsBytes(dst, src, pb, count, ds, ss, left+mid+right, mid, left, t, &k.pat) {
			return
		}
		if t := k.tab.endsWords; t != nil && endsWordsPays(r, left+mid+right) && rowsEndsWordsBytes(dst, src, pb, count, ds, ss, left+mid+right, mid, left, t, &k.pat) {
			return
		}
	}
	if k.planesAsRows(pb, count) {
		pb, count, ds, ss = planes{count, ds, ss}, pb.n, pb.dst, pb.src
	}
	if t := k.tab.pieces; t != nil && rowsPiecesBytes(dst, src, pb, count, ds, ss, left+mid+right, mid, t.ent) {
		return
	}
	switch {
	case r.kind == rowConst:
		rowsConstBytes(dst, src, pb, count, ds, ss, left, mid, right, &k.pat, k.stream)
	case r.kind == rowEdge:
		rowsEdgeBytes(dst, src, r.unit*size, pb, count, ds, ss, left, mid, right)
	case r.byPieces(size):
		for p := range pb.n {
			rowsPiecesGo(dst[p*pb.dst:], src[p*pb.src:], count, ds, ss, left, mid, right, r, r.unit*size)
		}
	default: // mirrored units the reverse kernel takes, or wrapped rows
		if lf, rf, ok := r.mirrored(); ok && kernelSize(r.unit*size) {
			rowsMirrorBytes(dst, src, r.unit*size, pb, count, ds, ss, left, mid, right, lf*size, rf*size)
		} else {
			lf, rf, _ := r.wrapped()
			rowsWrapBytes(dst, src, pb, count, ds, ss, left, mid, right, lf*size, rf*size)
		}
	}
}

// rowsExpandRowsMin is the fewest bytes of output of a run of rows that
// the expand kernel makes (rowsExpandRows).
var rowsExpandRowsMin = 16 << 10

// rowsExpandRows makes rowsPlanes's rows by the expand kernel, plane by
// plane, when they are constant rows that follow each other in dst and src
// and the plan has their table (rowExpandOf); it reports whether it did.
// The kernel's blocks start on 64-byte boundaries: a plane's rows before
// the first that starts on one go by the other kernels, and so does a
// plane whose rows never start on one (expandAligned).
func (k *byteKernels) rowsExpandRows(lv *level, pl planes, count, off, dstStride, srcOff, srcStride, stride int) bool {
	t, size := k.tab.rowExpand, k.size
	if t == nil || k.stream || dstStride*size != t.width || srcStride*size != t.mid || count*t.width < rowsExpandRowsMin || !expandsRows(t) {
		return false
	}
	for p := range pl.n {
		o, so := off+p*pl.dst, srcOff+p*pl.src
		head := expandAligned(k.dst[o*size:], k.src[(so+lv.row.src*stride)*size:], planes{count, t.width, t.mid}, t.mid, rowsExpandRowsMin, t, &k.pats)
		if head < 0 {
			head = count // the whole plane by the other kernels
		}
		if head > 0 {
			k.rowsPlanesBy(lv, onePlane, head, o, dstStride, so, srcStride, stride)
		}
	}
	return true
}

// expandAligned makes the blocks pl (byte strides: planes of table t, or
// rows taken as planes) by the expand kernel (rowsExpandPads) from the
// first whose dst starts on a 64-byte boundary, the kernel's phase, and
// returns how many blocks before it are left to the caller (up to 63).
// Where no block starts on one at any count (the phase of dst is not a
// multiple of gcd64(block)), it makes them all from dst's first line
// boundary by a shifted table (rowsExpandShifted) and returns 0. It
// returns -1, having made nothing, where no block within 64 starts on a
// line though a later one would (the caller's head of a run), fewer than
// minBytes of output would be made, or the kernel declines them. pats is
// the pattern twice (byteKernels.pats).
func expandAligned(dst, src []byte, pl planes, srcStride, minBytes int, t *expandTable, pats *[64]byte) int {
	phase := addrPhase(dst)
	for head := range min(pl.n, 64) {
		if (phase+head*pl.dst)%64 != 0 {
			continue
		}
		if (pl.n-head)*pl.dst < minBytes ||
			!rowsExpandPads(dst[head*pl.dst:], src[head*pl.src:], planes{pl.n - head, pl.dst, pl.src}, srcStride, t, (*[32]byte)(pats[:32])) {
			return -1
		}
		return head
	}
	if phase%gcd64(pl.dst) == 0 || pl.n*pl.dst < minBytes || !rowsExpandShifted(dst, src, pl, srcStride, t, pats) {
		return -1
	}
	return 0
}

// rowGroupsSplitMin is the fewest rows, over the planes of a call, that
// rowPlanes makes by groups when the groups leave rows over (which take a
// second call of the shuffle kernel, a row at a time); fewer rows go a row
// at a time in one call. With VBMI, in process (the two alternated 9
// rounds), 150 random plans of rows of 1 to 24 elements with a group
// table: calls of fewer than 128 rows took a geometric mean of 0.93x the
// time a row at a time (uint8 [1, 21, 24] wrapped to [1, 21, 27]:
// 0.72-0.73x); with a bound of 512, calls of 128 to 511 rows took 1.03x,
// 17 of 68 above 1.05x.
const rowGroupsSplitMin = 128

// rowPlanes makes the first rows of count rows ds bytes apart in each of
// the planes pl (byte strides), from input rows ss bytes apart that start
// at src (before any crop: the tables' sources are from the input row's
// start), as planes of many rows by the row tables (rowChunksOf,
// rowBlocksOf), if the level in use has their kernel and the rows lie as
// the table assumes, and returns the number of rows it made in each plane
// (a multiple of the table's rows), or 0.
func (k *byteKernels) rowPlanes(dst, src []byte, pl planes, count, ds, ss int) int {
	if k.stream {
		return 0
	}
	// byTable makes the rows by a table of rows rows, width bytes out,
	// from input rows srcStride bytes apart, by kernel.
	byTable := func(rows, width, srcStride int, kernel func(d, s []byte, pl planes) bool) int {
		if count < rows || ds*rows != width || ss != srcStride {
			return 0
		}
		n := count / rows
		for p := range pl.n {
			if !kernel(dst[p*pl.dst:], src[p*pl.src:], planes{n, width, rows * ss}) {
				return 0 // the level has no such kernel: none was made
			}
		}
		return n * rows
	}
	if t := k.tab.rowChunks; t != nil {
		if done := byTable(t.rows, t.width, t.srcStride, func(d, s []byte, pl planes) bool {
			return planeChunksBytes(d, s, pl, &t.chunkTable)
		}); done > 0 {
			return done
		}
	}
	if t := k.tab.rowBlocks; t != nil {
		if done := byTable(t.rows, t.width, t.srcStride, func(d, s []byte, pl planes) bool {
			return planeBlocksBytes(d, s, pl, &t.blockTable, k.zero, &k.pat)
		}); done > 0 {
			return done
		}
	}
	if t := k.tab.rowGroups; t != nil && count >= t.rows && ds*t.rows == t.width && ss == t.srcStride &&
		(count%t.rows == 0 || count*pl.n >= rowGroupsSplitMin) {
		// Every plane in one call, as the shuffle kernel takes them.
		if n := count / t.rows; rowGroupsBytes(dst, src, pl, n, t, &k.pat) {
			return n * t.rows
		}
	}
	return 0
}

// endsWrapMaxWidth is the widest wrapped row, in bytes, that the ends
// kernels make, and the widest mirrored row the word ends kernel makes:
// wider rows keep the rows kernels (rowsWrap, rowsMirror). At the AVX2
// level, in process, alternated with the ends kernel on uint8, int16,
// float32 and float64 rows wrapped by 4 to 16 bytes, rowsWrap took
// 0.99-1.06x its time at 2.5 and 3 KB, 0.74-0.92x at 4 KB and 0.74-0.95x at
// 6 and 8 KB (uint8 rows 0.80-0.85x from 2 KB); on float32 and float64
// rows wrapped or reflected by 24 and 32 bytes the word ends kernel took
// 0.80-1.07x the rows kernels' time up to 4 KB, 1.06-1.17x at 8 KB.
const endsWrapMaxWidth = 4 << 10

// endsMaxWidth is the widest row, in bytes, of edge or mirrored padding
// that the ends kernel makes: wider rows keep the rows kernels. At the AVX2
// level (in process, 4 to 5 alternated runs) it took 0.7 to 1.0x their time
// on rows of 116 to 420 bytes, and 1.025-1.03x on rows of 656 and 920.
const endsMaxWidth = 512

// endsPays reports whether rows of form r, width bytes wide, take the ends
// kernel where the level has it: wrapped rows up to endsWrapMaxWidth, edge
// and mirrored rows up to endsMaxWidth (endsPaysWithin); constant rows
// never (rowsConst made suite case g's rows with the value in 0.89x the
// time).
func endsPays(r *rowForm, width int) bool {
	return endsPaysWithin(r, width, endsMaxWidth, endsMaxWidth)
}

// endsWordsPays reports whether rows of form r, width bytes wide, take the
// word ends kernel where the level has it: mirrored and wrapped rows up to
// endsWrapMaxWidth, edge rows up to endsWordsEdgeMaxWidth (endsPaysWithin),
// constant rows never. At the AVX2 level, in process, against the rows
// kernels: float32 and float64 planes of 24x24 to 200x200 reflected or
// wrapped by 17 to 32 bytes took 0.46-0.97x the time; edge-padded ones
// 0.80-0.97x up to 256 bytes a row, 0.9-1.12x from 272 to 848 (float64
// edge-padded by 3 the slowest).
func endsWordsPays(r *rowForm, width int) bool {
	return endsPaysWithin(r, width, endsWordsEdgeMaxWidth, endsWrapMaxWidth)
}

// endsPaysWithin is the rule of both ends kernels: no constant rows, edge
// rows up to edge bytes, mirrored ones up to mirrored, wrapped ones up to
// endsWrapMaxWidth, and other pieces (which the rows kernels make in Go,
// rowsPiecesGo) at any width.
func endsPaysWithin(r *rowForm, width, edge, mirrored int) bool {
	switch r.kind {
	case rowConst:
		return false
	case rowEdge:
		return width <= edge
	}
	if _, _, ok := r.mirrored(); ok {
		return width <= mirrored
	}
	if _, _, ok := r.wrapped(); ok {
		return width <= endsWrapMaxWidth
	}
	return true
}

// endsWordsEdgeMaxWidth is the widest edge-padded row, in bytes, that the
// word ends kernel makes (endsWordsPays).
const endsWordsEdgeMaxWidth = 256

// wrapped reports whether the pieces of a rowPieces form are forward runs
// (wrap padding within one period), and the element offset, in the copied
// input run, of the first element each reads (0 for an empty pad).
func (r *rowForm) wrapped() (leftFrom, rightFrom int, ok bool) {
	return r.from[0], r.from[1], r.forward
}

// rowsWrapGo pads rows with forward runs of their own input: row r of dst
// (at r*dstStride) is left bytes of src row r (at r*srcStride) from byte
// leftFrom, the mid bytes of the src row, and right bytes from byte
// rightFrom.
func rowsWrapGo(dst, src []byte, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int) {
	for r := 0; r < rows; r++ {
		d := dst[r*dstStride : r*dstStride+left+mid+right]
		s := src[r*srcStride : r*srcStride+mid]
		copy(d[left:left+mid], s)
		copy(d[:left], s[leftFrom:leftFrom+left])
		copy(d[left+mid:], s[rightFrom:rightFrom+right])
	}
}

// byPieces reports whether the rows kernels make rows of form r at
// element size bytes piece by piece in Go (rowsPiecesGo).
func (r *rowForm) byPieces(size int) bool {
	if r.kind == rowGeneral || r.kind == rowConst || r.kind == rowEdge {
		return false
	}
	if _, _, ok := r.mirrored(); ok && kernelSize(r.unit*size) {
		return false
	}
	_, _, wrapped := r.wrapped()
	return !wrapped
}

// mirrored reports whether the pieces of a rowPieces form are mirrored
// runs on the left and the right (reflect and symmetric padding), and
// where each reads: the element offset, in the copied input run, of its
// last unit.
func (r *rowForm) mirrored() (leftFrom, rightFrom int, ok bool) {
	return r.from[0], r.from[1], r.reversed
}

// rowsMirrorGo pads rows with mirrored runs of their own input: row r of
// dst (at r*dstStride) is left bytes mirrored from the size-byte units of
// src row r (at r*srcStride) ending with the unit at leftFrom, mid bytes of
// the src row, and right bytes mirrored from the units ending at rightFrom.
func rowsMirrorGo(dst, src []byte, size, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int) {
	for r := 0; r < rows; r++ {
		d := dst[r*dstStride : r*dstStride+left+mid+right]
		s := src[r*srcStride : r*srcStride+mid]
		copy(d[left:left+mid], s)
		reverseGo(d[:left], s[leftFrom+size-left:leftFrom+size], size)
		reverseGo(d[left+mid:], s[rightFrom+size-right:rightFrom+size], size)
	}
}

// piecesMax is the most pieces a row of a pieces table (piecesOf) has,
// edgePiecesMax the most units of an edge pad there.
const (
	piecesMax     = 64
	edgePiecesMax = 12
)

// piecesOf returns the pieces table of rows of form r at element size
// bytes, or nil: for the rows that the rows kernels make piece by piece in
// Go, edge pads of units of other sizes than the kernels' (rowsEdgeGo) and
// the rows of byPieces (rowsPiecesGo: mirrored units of such sizes, pads of
// several pieces), of at most piecesMax pieces. Its entries are the
// rowsPieces kernel's (at, from, n: a copy of n bytes of the input row from
// byte from to byte at of the output row): the mid first, then one for
// each unit of an edge pad or of a mirrored run, one for each forward run.
func piecesOf(r *rowForm, size int) *pieceTable {
	unit := r.unit * size
	left, mid, right := r.left*size, r.mid*size, r.right*size
	width := left + mid + right
	if mid == 0 || width > math.MaxInt32 {
		return nil
	}
	edge := r.kind == rowEdge && !kernelSize(unit)
	pieces := 1 // the mid
	switch {
	case edge:
		if left/unit > edgePiecesMax || right/unit > edgePiecesMax {
			return nil
		}
		pieces += (left + right) / unit
	case r.byPieces(size):
		for _, p := range r.pieces {
			pieces += 1 + (p.n-1)*btoi(p.step < 0)
		}
	default:
		return nil
	}
	if pieces > piecesMax {
		return nil
	}
	tab := make([]int32, 0, 3*pieces)
	add := func(at, from, n int) { tab = append(tab, int32(at), int32(from), int32(n)) }
	add(left, 0, mid)
	if edge {
		for at := 0; at < left; at += unit {
			add(at, 0, unit)
		}
		for at := left + mid; at < width; at += unit {
			add(at, mid-unit, unit)
		}
		return &pieceTable{tab}
	}
	for _, p := range r.pieces {
		at, from := p.at*unit, (p.src-r.src)*unit
		if p.step > 0 {
			add(at, from, p.n*unit)
			continue
		}
		for j := range p.n { // a reversed run: its units in reverse order
			add(at+j*unit, from-j*unit, unit)
		}
	}
	return &pieceTable{tab}
}

// pieceTable is a pieces table (piecesOf): three int32 a piece.
type pieceTable struct{ ent []int32 }

// rowsPiecesGo makes rows of the form rowPieces: row t of dst (at
// t*dstStride) is mid bytes of src row t (at t*srcStride) at byte left,
// and the pieces of r, units of unit bytes copied from that src row,
// forward or mirrored. One loop for all rows, the pieces short: this is
// reflect, symmetric and wrap padding of short rows.
func rowsPiecesGo(dst, src []byte, rows, dstStride, srcStride, left, mid, right int, r *rowForm, unit int) {
	width := left + mid + right
	for t := 0; t < rows; t++ {
		d := dst[t*dstStride : t*dstStride+width]
		s := src[t*srcStride : t*srcStride+mid]
		copy(d[left:left+mid], s)
		for _, p := range r.pieces {
			at, from, n := p.at*unit, (p.src-r.src)*unit, p.n*unit
			if p.step > 0 {
				copy(d[at:at+n], s[from:from+n])
				continue
			}
			reverseGo(d[at:at+n], s[from+unit-n:from+unit], unit)
		}
	}
}

// row makes one row of the innermost level lv at dst[off:] from the input
// row at src[srcOff:]. It is the executor's segment loop for the innermost
// level, repeated here so that short rows (reflect, wrap, symmetric,
// interior padding) cost direct calls, not a call through the generic
// executor's dictionary per run.
func (k *byteKernels) row(lv *level, off, srcOff, stride int) {
	blk := lv.blk
	for i := range lv.segs {
		s := &lv.segs[i]
		at := off + s.at*blk
		switch s.kind {
		case segFill:
			k.fill(at, s.n*blk)
		case segSrc:
			k.copyUnits(k.src, at, srcOff+s.src*stride, s.n, blk, s.step*stride)
		case segDilate:
			k.dilate(at, srcOff+s.src*stride, s.n, s.step, blk, stride)
		case segDup:
			k.copyUnits(k.dst, at, off+s.src*blk, s.n, blk, s.step*blk)
		case segRepeat:
			repeat(k, at, s.n*blk, s.step*blk)
		}
	}
}

// dilate makes a row's interior padding: n input blocks of blk elements,
// stride elements apart from srcOff, at off with gap blocks of the value
// between neighbours. Blocks of up to 32 bytes take a word or two each
// (dilateWords; dilatePairs one value block apart), where the executor's
// fill and copy calls took 13 ns an element (float32 [1, 64, 28, 28]
// dilated to [1, 64, 55, 55]: 670 us, 43x memmove); gaps of two blocks or
// more are filled first, by the fill kernel (int16 [64, 356] dilated by 2
// at the AVX2 level: 32 -> 19x memmove). Where the level has an expand
// kernel, the plan's tables of interior padding (denseExpandOf) take most
// such rows first.
func (k *byteKernels) dilate(off, srcOff, n, gap, blk, stride int) {
	size := k.size
	b := blk * size
	if n > 0 && kernelSize(size) && b <= 32 {
		d := k.dst[off*size : (off+(n-1)*(gap+1)*blk+blk)*size]
		s := k.src[srcOff*size : (srcOff+(n-1)*stride)*size+b]
		filled := gap >= 2 // the value first, by the fill kernel, then the blocks
		if filled {
			k.fill(off, len(d)/size)
		}
		dilateRows(d, s, 1, 0, 0, b, n, gap, stride*size, &k.pat, filled)
		return
	}
	dilateEach(k, off, srcOff, n, gap, blk, stride)
}

// dilateRows makes rows rows, row t at d[t*dstStep:] from s[t*srcStep:]
// (bytes): the n blocks of b <= 32 bytes of the input row, ss bytes
// apart, with gap blocks of the value between neighbours, pat repeated
// (the byte kernels' pattern), unless filled (d holds the value). Blocks
// of one word a value block apart go by dilatePairs (a block and the
// value after it are one store either way), others by dilateWords with
// the widest word up to b; b of 1, 2 or 4 bytes is of elements of that
// size or smaller, whose pattern repeats. The choice is made once for
// all rows: per row, a call more cost rows of 7 to 21 elements 10-18% of
// their time (scatter at the Go level).
func dilateRows(d, s []byte, rows, dstStep, srcStep, b, n, gap, ss int, pat *[32]byte, filled bool) {
	dl, sl := ((n-1)*(gap+1)+1)*b, (n-1)*ss+b
	row := func(t int) ([]byte, []byte) { return d[t*dstStep:][:dl], s[t*srcStep:][:sl] }
	switch {
	case gap == 1 && b == 1:
		for t := range rows {
			dt, st := row(t)
			dilatePairs[uint8, uint16](dt, st, n, ss, pat[0])
		}
		return
	case gap == 1 && b == 2:
		for t, v := 0, binary.NativeEndian.Uint16(pat[:]); t < rows; t++ {
			dt, st := row(t)
			dilatePairs[uint16, uint32](dt, st, n, ss, v)
		}
		return
	case gap == 1 && b == 4:
		for t, v := 0, binary.NativeEndian.Uint32(pat[:]); t < rows; t++ {
			dt, st := row(t)
			dilatePairs[uint32, uint64](dt, st, n, ss, v)
		}
		return
	}
	if filled {
		pat = nil
	}
	for t := range rows {
		dt, st := row(t)
		switch {
		case b >= 16:
			dilateWords[[16]byte](dt, st, b, n, gap, ss, pat)
		case b >= 8:
			dilateWords[uint64](dt, st, b, n, gap, ss, pat)
		case b >= 4:
			dilateWords[uint32](dt, st, b, n, gap, ss, pat)
		case b >= 2:
			dilateWords[uint16](dt, st, b, n, gap, ss, pat)
		default:
			dilateWords[uint8](dt, st, b, n, gap, ss, pat)
		}
	}
}

// dilateEach is the kernels' dilate by a copySrc call a block and a fill
// call a gap.
func dilateEach[K interface {
	fill(off, n int)
	copySrc(off, srcOff, count, width, step int)
}](k K, off, srcOff, n, gap, blk, stride int) {
	for t := range n {
		if t > 0 {
			k.fill(off, gap*blk)
			off += gap * blk
		}
		k.copySrc(off, srcOff, 1, blk, stride)
		off += blk
		srcOff += stride
	}
}

// dilateWords writes the n blocks of b bytes of s, ss bytes apart, into d
// with gap blocks of the pattern between neighbours (none where pat is nil:
// d holds the value already), by unsafe loads and stores at any alignment:
// a word W a block where b is its size, else two that overlap (W the
// widest word up to b, as gatherWords moves elements). d holds exactly
// those blocks, and s reaches the last one (dilate's slices).
func dilateWords[W uint8 | uint16 | uint32 | uint64 | [16]byte](d, s []byte, b, n, gap, ss int, pat *[32]byte) {
	var w W
	hi := b - int(unsafe.Sizeof(w)) // the second word's offset
	dp, sp := unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(s))
	if pat == nil {
		for t := range n {
			o, e := unsafe.Add(dp, t*(gap+1)*b), unsafe.Add(sp, t*ss)
			x, y := *(*W)(e), *(*W)(unsafe.Add(e, hi))
			*(*W)(o), *(*W)(unsafe.Add(o, hi)) = x, y
		}
		return
	}
	pp := unsafe.Pointer(pat)
	va, vb := *(*W)(pp), *(*W)(unsafe.Add(pp, hi))
	if hi == 0 { // a word a block
		for t := range n {
			o := unsafe.Add(dp, t*(gap+1)*b)
			*(*W)(o) = *(*W)(unsafe.Add(sp, t*ss))
			for g := 1; g <= gap && t < n-1; g++ {
				*(*W)(unsafe.Add(o, g*b)) = va
			}
		}
		return
	}
	for t := range n {
		o, e := unsafe.Add(dp, t*(gap+1)*b), unsafe.Add(sp, t*ss)
		x, y := *(*W)(e), *(*W)(unsafe.Add(e, hi))
		*(*W)(o), *(*W)(unsafe.Add(o, hi)) = x, y
		if t < n-1 {
			for g := 1; g <= gap; g++ {
				q := unsafe.Add(o, g*b)
				*(*W)(q), *(*W)(unsafe.Add(q, hi)) = va, vb
			}
		}
	}
}

// dilatePairs is dilateWords for blocks of one word W one value block v
// apart: a block and the value after it are one store of a word P twice as
// wide (int16 [17, 191] dilated by 1 at the AVX2 level: 57 -> 21x memmove);
// contiguous 1- and 2-byte blocks four at a time, spread by shifts and
// masks over one or two 8-byte stores (at the AVX2 level, benchstat over 6
// alternations: uint8 [64, 300] 10.2 -> 6.3 us, int16 [17, 191] 2.0 -> 1.6
// us, uint8 [1, 23, 33, 33] dilated on both axes 22.7 -> 17.4 us).
func dilatePairs[W uint8 | uint16 | uint32, P uint16 | uint32 | uint64](d, s []byte, n, ss int, v W) {
	w := int(unsafe.Sizeof(v))
	xs, vs := 0, 8*w // the shifts that put the block first in memory, then v
	if !littleEndian {
		xs, vs = vs, xs
	}
	dp, sp, pv := unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(s)), P(v)<<vs
	t := 0
	if littleEndian && ss == w && w <= 2 { // four blocks a turn, spread over 8 or 16 bytes
		for ; t+4 < n; t += 4 {
			o := unsafe.Add(dp, 2*w*t)
			if w == 1 {
				x := uint64(*(*uint32)(unsafe.Add(sp, t)))
				x = (x | x<<16) & 0x0000ffff0000ffff
				x = (x | x<<8) & 0x00ff00ff00ff00ff
				*(*uint64)(o) = x | uint64(v)*0x0100010001000100
			} else {
				x, vv := *(*uint64)(unsafe.Add(sp, 2*t)), uint64(v)<<16|uint64(v)<<48
				*(*uint64)(o) = x&0xffff | x&0xffff0000<<16 | vv
				*(*uint64)(unsafe.Add(o, 8)) = x>>32&0xffff | x>>48<<32 | vv
			}
		}
	}
	for ; t < n-1; t++ {
		*(*P)(unsafe.Add(dp, 2*w*t)) = P(*(*W)(unsafe.Add(sp, t*ss)))<<xs | pv
	}
	*(*W)(unsafe.Add(dp, 2*w*(n-1))) = *(*W)(unsafe.Add(sp, (n-1)*ss))
}

// littleEndian reports whether the CPU stores a word's low byte first.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// The Go versions of the byte kernels: the generic path, the reference the
// assembly is tested against, and what short runs use where a call into
// assembly costs more than it saves. Lengths are in bytes.

// fillGo fills b with pat, which repeats with a period dividing 16 that
// divides len(b).
func fillGo(b []byte, pat *[32]byte) { fillPattern(b, pat[:]) }

// fillPattern fills b with copies of pat by doubling copies.
func fillPattern(b, pat []byte) {
	if len(b) == 0 {
		return
	}
	n := copy(b, pat)
	for n < len(b) {
		n += copy(b[n:], b[:n])
	}
}

// reverseGo copies the size-byte elements of src to dst in reverse order.
func reverseGo(dst, src []byte, size int) {
	m := len(src) / size
	switch size {
	case 1:
		for i, j := 0, m-1; i < m; i, j = i+1, j-1 {
			dst[i] = src[j]
		}
	case 2:
		for i, j := 0, 2*(m-1); i < 2*m; i, j = i+2, j-2 {
			binary.LittleEndian.PutUint16(dst[i:], binary.LittleEndian.Uint16(src[j:]))
		}
	case 4:
		for i, j := 0, 4*(m-1); i < 4*m; i, j = i+4, j-4 {
			binary.LittleEndian.PutUint32(dst[i:], binary.LittleEndian.Uint32(src[j:]))
		}
	case 8:
		for i, j := 0, 8*(m-1); i < 8*m; i, j = i+8, j-8 {
			binary.LittleEndian.PutUint64(dst[i:], binary.LittleEndian.Uint64(src[j:]))
		}
	default:
		for i, j := 0, size*(m-1); i < size*m; i, j = i+size, j-size {
			copy(dst[i:i+size], src[j:j+size])
		}
	}
}

// rowsConstGo pads rows with a constant: row r of dst (at r*dstStride) is
// left bytes of pat, mid bytes of src row r (at r*srcStride), right bytes
// of pat.
func rowsConstGo(dst, src []byte, rows, dstStride, srcStride, left, mid, right int, pat *[32]byte) {
	for r := 0; r < rows; r++ {
		d := dst[r*dstStride : r*dstStride+left+mid+right]
		fillGo(d[:left], pat)
		copy(d[left:left+mid], src[r*srcStride:r*srcStride+mid])
		fillGo(d[left+mid:], pat)
	}
}

// rowsEdgeGo pads rows with their edge elements: as rowsConstGo, with the
// left padding repeating the row's first size-byte element and the right
// padding its last.
func rowsEdgeGo(dst, src []byte, size, rows, dstStride, srcStride, left, mid, right int) {
	for r := 0; r < rows; r++ {
		d := dst[r*dstStride : r*dstStride+left+mid+right]
		s := src[r*srcStride : r*srcStride+mid]
		fillPattern(d[:left], s[:size])
		copy(d[left:left+mid], s)
		fillPattern(d[left+mid:], s[mid-size:])
	}
}

// typedKernels handles elements as Go values: strings, pointers and any
// type that is not plain bytes of a kernel size.
type typedKernels[T any] struct {
	dst, src []T
	value    T
}

func (k typedKernels[T]) fill(off, n int) {
	b := k.dst[off : off+n]
	if len(b) == 0 {
		return
	}
	b[0] = k.value
	for i := 1; i < len(b); i *= 2 {
		copy(b[i:], b[:i])
	}
}

func (k typedKernels[T]) flush() {}

func (k typedKernels[T]) fills(off, n, count, stride int) { fillEach(k, off, n, count, stride) }

// dilate: single elements (the index maps of the tables, strings) in one
// loop, where a fill and a copy call each took indexMap 35 ns an element
// (uint8 [350, 350] dilated by 1: the second run, which builds the tables,
// took 17 ms).
func (k typedKernels[T]) dilate(off, srcOff, n, gap, blk, stride int) {
	if blk != 1 || n == 0 {
		dilateEach(k, off, srcOff, n, gap, blk, stride)
		return
	}
	d := k.dst[off : off+(n-1)*(gap+1)+1]
	for t := range n {
		d[t*(gap+1)] = k.src[srcOff+t*stride]
		for g := 1; g <= gap && t < n-1; g++ {
			d[t*(gap+1)+g] = k.value
		}
	}
}

func (k typedKernels[T]) copiesDst(off, from, n, count, stride int) {
	copyEach(k, off, from, n, count, stride)
}

// acrossBatch: the typed kernels make no runs of planes or rows, whose
// calls across saves.
func (k typedKernels[T]) acrossBatch(int) int { return 1 }

func (k typedKernels[T]) copyDirection(int) int { return forcedCopyDirection }

func (k typedKernels[T]) rows(*level, int, int, int, int, int, int) bool { return false }

func (k typedKernels[T]) cubes(int, int, int, int, int) (int, int) { return 0, 0 }

func (k typedKernels[T]) planes(*level, *level, int, int, int, int, int, int, int) bool {
	return false
}

func (k typedKernels[T]) copySrc(off, srcOff, count, width, step int) {
	copyTyped(k.dst, k.src, off, srcOff, count, width, step)
}

func (k typedKernels[T]) copyDst(off, from, count, width, step int) {
	copyTyped(k.dst, k.dst, off, from, count, width, step)
}

func copyTyped[T any](dst, src []T, off, srcOff, count, width, step int) {
	if step == width {
		copy(dst[off:off+count*width], src[srcOff:srcOff+count*width])
		return
	}
	if width == 1 {
		for t := range dst[off : off+count] {
			dst[off+t] = src[srcOff+t*step]
		}
		return
	}
	for t := 0; t < count; t++ {
		copy(dst[off+t*width:off+(t+1)*width], src[srcOff+t*step:srcOff+t*step+width])
	}
}

// packedKernels handles elements of 4 or 2 bits packed into bytes, the
// first element in the least significant bits.
type packedKernels struct {
	dst, src []byte
	bits     uint
	value    uint8
}

func (k packedKernels) perByte() int { return 8 / int(k.bits) }

func (k packedKernels) get(b []byte, i int) uint8 {
	per := k.perByte()
	return b[i/per] >> (uint(i%per) * k.bits) & (1<<k.bits - 1)
}

func (k packedKernels) set(b []byte, i int, v uint8) {
	per := k.perByte()
	sh := uint(i%per) * k.bits
	b[i/per] = b[i/per]&^((1<<k.bits-1)<<sh) | v<<sh
}

func (k packedKernels) fill(off, n int) {
	per := k.perByte()
	for n > 0 && off%per != 0 { // up to the next byte boundary
		k.set(k.dst, off, k.value)
		off++
		n--
	}
	pattern := k.value
	for sh := k.bits; sh < 8; sh += k.bits {
		pattern |= k.value << sh
	}
	whole := n / per
	fillPattern(k.dst[off/per:off/per+whole], []byte{pattern})
	for i := off + whole*per; i < off+n; i++ {
		k.set(k.dst, i, k.value)
	}
}

func (k packedKernels) flush() {}

func (k packedKernels) fills(off, n, count, stride int) { fillEach(k, off, n, count, stride) }

func (k packedKernels) dilate(off, srcOff, n, gap, blk, stride int) {
	dilateEach(k, off, srcOff, n, gap, blk, stride)
}

func (k packedKernels) copiesDst(off, from, n, count, stride int) {
	copyEach(k, off, from, n, count, stride)
}

func (k packedKernels) acrossBatch(int) int { return 1 }

func (k packedKernels) copyDirection(int) int { return forcedCopyDirection }

func (k packedKernels) rows(*level, int, int, int, int, int, int) bool { return false }

func (k packedKernels) cubes(int, int, int, int, int) (int, int) { return 0, 0 }

func (k packedKernels) planes(*level, *level, int, int, int, int, int, int, int) bool {
	return false
}

func (k packedKernels) copySrc(off, srcOff, count, width, step int) {
	k.copyUnits(k.src, off, srcOff, count, width, step)
}

func (k packedKernels) copyDst(off, from, count, width, step int) {
	k.copyUnits(k.dst, off, from, count, width, step)
}

func (k packedKernels) copyUnits(src []byte, off, srcOff, count, width, step int) {
	if step == width {
		k.copyRun(src, off, srcOff, count*width)
		return
	}
	for t := 0; t < count; t++ {
		k.copyRun(src, off+t*width, srcOff+t*step, width)
	}
}

// copyRun copies n elements; whole bytes at once when both runs are at the
// same position within a byte.
func (k packedKernels) copyRun(src []byte, off, srcOff, n int) {
	per := k.perByte()
	if off%per == srcOff%per {
		for n > 0 && off%per != 0 {
			k.set(k.dst, off, k.get(src, srcOff))
			off, srcOff, n = off+1, srcOff+1, n-1
		}
		whole := n / per
		copy(k.dst[off/per:off/per+whole], src[srcOff/per:srcOff/per+whole])
		off, srcOff, n = off+whole*per, srcOff+whole*per, n-whole*per
	}
	for i := 0; i < n; i++ {
		k.set(k.dst, off+i, k.get(src, srcOff+i))
	}
}

// byteSized reports whether T is plain bytes the byte kernels may move (no
// pointers, 1 to 16 bytes) and its size.
func byteSized[T any]() (int, bool) {
	t := reflect.TypeFor[T]()
	size := int(t.Size())
	if size == 0 || size > 16 {
		return 0, false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return size, true
	case reflect.Array, reflect.Struct:
		if v, ok := pointerFreeCache.Load(t); ok {
			return size, v.(bool)
		}
		free := pointerFree(t)
		pointerFreeCache.Store(t, free)
		return size, free
	}
	return 0, false
}

var pointerFreeCache sync.Map // reflect.Type -> bool

func pointerFree(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Array:
		return t.Len() == 0 || pointerFree(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !pointerFree(t.Field(i).Type) {
				return false
			}
		}
		return true
	case reflect.String, reflect.Pointer, reflect.UnsafePointer, reflect.Slice, reflect.Map,
		reflect.Chan, reflect.Func, reflect.Interface:
		return false
	}
	return true
}

// asBytes views a slice of a pointer-free type as its bytes.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}
