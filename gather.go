package pad

import (
	"encoding/binary"
	"slices"
	"sync"
	"unsafe"
)

// Small outputs skip the executor. A plan whose output has at most
// gatherRunsMaxOut elements (from at most gatherMaxIn input elements) and
// is a few long runs, each a copy of the input, a fill with the value or
// an input element repeated (a 1-D signal, a few rows padded at their
// ends), keeps those runs (gatherRuns); failing that, one whose output has
// at most gatherMaxOut elements keeps a table with the input index of
// every output element, or -1 for the value, and a run is one loop over
// it (gather). The executor's fixed cost (its walk over the levels, a
// kernel call per run) dominates such outputs: the ONNX spec example ([3,
// 2] to [3, 4]) took 75-110 ns through it, 25 ns through the table.
//
// The table's loop takes about 0.45 ns an element of up to 8 bytes, the
// executor 55-110 ns and its kernels' time: in process, plans built with
// the table and without alternated 7 rounds, 120 random plans of 65 to
// 200 elements out (rank 1 to 3, every mode, elements of 1 to 8 bytes)
// took 0.12-1.21x the time with it up to 128 elements (median 0.69x),
// 0.47-1.03x from 129 to 160 and 0.71-2.0x above. Elements wider than 8
// bytes, or that hold pointers, cost the loop more: they keep the table
// up to gatherAnyMaxOut elements, the bound before this one, and those of
// 9 to 16 bytes without pointers (one or two words: gatherWords) up to
// gatherWideMaxOut. In process as above, 60 plans of 65 to 160 elements
// took with the table, by geometric mean, 0.44x the time at 12 bytes and
// 0.64x at 16 up to 112 elements (at most 0.90x and 1.10x), 0.58x and
// 0.98x above (at most 1.42x and 1.36x).
//
// gatherMaxOut is a variable so that tests can send small outputs through
// the executor too: 0 sends every output there.
var gatherMaxOut = 160

// gatherAnyMaxOut is the most elements a run gathers whatever their type,
// gatherWideMaxOut of 9 to 16 bytes without pointers (gathers).
const (
	gatherAnyMaxOut  = 64
	gatherWideMaxOut = 112
)

const gatherMaxIn = 4096

// The bounds of run tables: at most gatherRunsMax runs of gatherRunsPer
// elements or more on average, at most gatherRunsMaxOut elements out (the
// index map that finds them is built at NewPlan) and, at run time,
// gatherRunsMaxBytes of output, past which they saved nothing measurable
// (the figures below are with the runtime's memmove for every copy, before
// copyRun). In process, plans built with runs and without alternated 7
// rounds (rank 1 and 2, up to four rows, every mode, elements of 1 to 16
// bytes):
//   - 110 plans of 100 to 4096 elements out, 0.5 to 64 KiB: geometric mean
//     0.56x the time with up to 16 runs, 0.16-1.05x with up to 8 (a 1-D
//     float32 [1099] padded by 3 zeros 2.56 -> 1.43x memmove); 9 to 12
//     runs 0.60-1.25x. From 37 KiB, 0.79-1.17x;
//   - 50 plans of 20 to 160 elements, against the element table: 0.16-0.75x
//     the time with 8 elements a run or more, up to 1.22x with fewer.
const (
	gatherRunsMax      = 8
	gatherRunsPer      = 8
	gatherRunsMaxOut   = 4096
	gatherRunsMaxBytes = 32 << 10
)

// gathers reports whether a run of elements of size bytes, which hold no
// pointers if pointerFree, takes the plan's gather table.
func (p *Plan) gathers(size int, pointerFree bool) bool {
	return p.gather != nil && (p.outLen <= gatherAnyMaxOut ||
		pointerFree && (size <= 8 || size <= 16 && p.outLen <= gatherWideMaxOut))
}

// runsFit reports whether a run of elements of size bytes takes the plan's
// run table.
func (p *Plan) runsFit(size int) bool {
	return p.runs != nil && p.outLen <= gatherRunsMaxBytes/size
}

// buildGather sets p.runs or p.gather when the output is small enough.
// The index map that both come from is built only where one may be kept:
// for outputs of more than gatherMaxOut elements, only where few rows
// hold input (dataRows), as NewPlan took 5-16x the time otherwise (a
// float32 [16, 250] padded by 6 zeros a row: 1.8 -> 20 µs).
func (p *Plan) buildGather() {
	if p.outLen == 0 || p.outLen > max(gatherMaxOut, gatherRunsMaxOut) || p.inLen > gatherMaxIn || gatherMaxOut == 0 ||
		p.outLen > gatherMaxOut && dataRows(p.levels) > gatherRunsMax {
		return
	}
	buf := indexScratch.Get().(*[]int32)
	if cap(*buf) < p.inLen+p.outLen {
		*buf = make([]int32, p.inLen+p.outLen)
	}
	in, idx := (*buf)[:p.inLen], (*buf)[p.inLen:p.inLen+p.outLen]
	indexMapInto(idx, in, p.levels, p.strides)
	if runs := gatherRunsOf(idx, gatherRunsMax); runs != nil && len(runs)*gatherRunsPer <= p.outLen {
		p.runs = runs
	} else if p.outLen <= gatherMaxOut {
		p.gather = slices.Clone(idx)
	}
	indexScratch.Put(buf)
}

// indexScratch holds the index maps buildGather reads and drops: without
// it, their allocations took NewPlan of a float32 [4000] signal from 1.1
// to 18 µs (in a loop of NewPlan calls, mostly the collector's time).
var indexScratch = sync.Pool{New: func() any { return new([]int32) }}

// dataRows returns the number of output rows of the innermost level that
// hold input, up to gatherRunsMax+1: each starts a run of its own, since
// rows that follow each other in the input without padding are one level.
func dataRows(levels []level) int {
	rows := 1
	for _, lv := range levels[:len(levels)-1] {
		blocks := 0
		for _, s := range lv.segs {
			if s.kind != segFill {
				blocks += s.n
			}
		}
		rows = min(rows*blocks, gatherRunsMax+1)
	}
	return rows
}

// gatherRun is a run of the output that one copy or fill makes: n elements
// from dst element at, copies of the input from element src, or src's
// element repeated (rep), or the value (src < 0).
type gatherRun struct {
	at, src, n int32
	rep        bool
}

// gatherRunsOf returns the runs of the output whose input indexes are idx
// (indexMap), or nil if there are more than most: stretches of the value,
// of consecutive input elements, and of one input element repeated.
func gatherRunsOf(idx []int32, most int) []gatherRun {
	var runs []gatherRun
	for i := 0; i < len(idx); {
		j, rep := i+1, false
		switch {
		case idx[i] < 0:
			for j < len(idx) && idx[j] < 0 {
				j++
			}
		default:
			for j < len(idx) && idx[j] == idx[j-1]+1 {
				j++
			}
			if j == i+1 {
				for j < len(idx) && idx[j] == idx[i] {
					j++
				}
				rep = j > i+1
			}
		}
		if len(runs) == most {
			return nil
		}
		runs = append(runs, gatherRun{int32(i), idx[i], int32(j - i), rep})
		i = j
	}
	return runs
}

// gatherRuns makes dst from src and value by runs, a copy or a fill each.
func gatherRuns[T any](dst, src []T, runs []gatherRun, value T) {
	for _, r := range runs {
		d := dst[r.at : r.at+r.n]
		switch {
		case r.src >= 0 && !r.rep:
			copy(d, src[r.src:])
		case r.src >= 0:
			v := src[r.src]
			for i := range d {
				d[i] = v
			}
		default:
			for i := range d {
				d[i] = value
			}
		}
	}
}

// gatherRunsBytes is gatherRuns for elements of size bytes; value is one
// element or empty (zero).
func gatherRunsBytes(dst, src []byte, size int, runs []gatherRun, value []byte) {
	zero := allZero(value)
	for _, r := range runs {
		d := dst[int(r.at)*size : int(r.at+r.n)*size]
		switch {
		case r.src >= 0 && !r.rep:
			copyRun(d, src[int(r.src)*size:][:len(d)])
		case r.src >= 0:
			repeatElement(d, src[int(r.src)*size:][:size])
		case zero:
			clear(d)
		default:
			repeatElement(d, value)
		}
	}
}

// copyRun copies s to d, long runs as the executor does (copyBytes: REP
// MOVSB where it beats the runtime's memmove): a float64 [3325] padded by
// wrapping took 1.05-1.20x memmove by the runtime's, 0.93-0.96x through
// the executor.
func copyRun(d, s []byte) {
	if repMinBytes > 0 && len(d) >= repMinBytes {
		copyBytes(d, s, false)
		return
	}
	copy(d, s)
}

// repeatElement fills d, a multiple of v's length, with copies of v: the
// first 64 bytes of values of 1 to 8 bytes 8 bytes at a time, then copies
// that double (fillPattern).
func repeatElement(d, v []byte) {
	rep, ok := repeated(v)
	if !ok {
		fillPattern(d, v)
		return
	}
	n := 0
	for ; n+8 <= min(len(d), 64); n += 8 {
		binary.LittleEndian.PutUint64(d[n:], rep)
	}
	for ; n < min(len(d), 64); n++ {
		d[n] = byte(rep >> (8 * (n % 8)))
	}
	if n < len(d) {
		fillPattern(d, d[:n])
	}
}

// indexMap runs a program on the input indices 0..inLen-1 with -1 as the
// value: element i of the result is the input index output element i
// takes, or -1 where it takes the value. The gather and shuffle tables
// come from it, so they say exactly what the executor does.
func indexMap(levels []level, strides []int, inLen, outLen int) []int32 {
	out := make([]int32, outLen)
	indexMapInto(out, make([]int32, inLen), levels, strides)
	return out
}

// indexMapInto is indexMap into out, with in as its input's scratch.
func indexMapInto(out, in []int32, levels []level, strides []int) {
	for i := range in {
		in[i] = int32(i)
	}
	execute(typedKernels[int32]{out, in, -1}, levels, strides, 1, nil)
}

// gather sets dst[i] = src[idx[i]], or value where idx[i] < 0.
func gather[T any](dst, src []T, idx []int32, value T) {
	dst = dst[:len(idx)]
	for i, j := range idx {
		if j < 0 {
			dst[i] = value
		} else {
			dst[i] = src[j]
		}
	}
}

// gatherBytes is gather for elements of size bytes; value is one element or
// empty (zero). Elements of 2 to 16 bytes take gatherWords.
func gatherBytes(dst, src []byte, size int, idx []int32, value []byte) {
	if size > 1 && size <= 16 {
		d, s := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src))
		switch {
		case size >= 8:
			gatherWords[uint64](d, s, size, idx, value)
		case size >= 4:
			gatherWords[uint32](d, s, size, idx, value)
		default:
			gatherWords[uint16](d, s, size, idx, value)
		}
		return
	}
	if size == 1 {
		var v byte
		if len(value) > 0 {
			v = value[0]
		}
		gather(dst, src, idx, v)
		return
	}
	for i, j := range idx {
		d := dst[i*size : (i+1)*size]
		switch {
		case j >= 0:
			copy(d, src[int(j)*size:])
		case len(value) > 0:
			copy(d, value)
		default:
			clear(d)
		}
	}
}

// gatherWords is gatherBytes for elements of 2 to 16 bytes at any
// alignment (d and s the first bytes of dst and src), by unsafe loads and
// stores of words W: one an element where the size is W's, else two,
// overlapping below 16 bytes, W the widest word <= size (both read before
// either is written). A copy call each took outputs of 100 to 144 such
// elements (3, 5, 6 and 7 bytes; float32 and int16 off their alignment)
// 1.2-5x the executor's time, the same loop with slices and bounds checks
// 1.3x a copy call; typed loops of aligned 2-, 4- and 8-byte elements took
// about 1.2x this one's time (16-byte elements by a copy call each, 1.5-1.9x
// the time of two uint64 moves). idx must hold indexes below len(src)/size
// and dst size*len(idx) bytes (the plan's gather table and RunBytes's
// checks); value is empty or size bytes.
func gatherWords[W uint16 | uint32 | uint64](d, s unsafe.Pointer, size int, idx []int32, value []byte) {
	w := size - int(unsafe.Sizeof(W(0))) // the second word's offset
	var va, vb W
	if len(value) > 0 {
		v := unsafe.Pointer(unsafe.SliceData(value))
		va, vb = *(*W)(v), *(*W)(unsafe.Add(v, w))
	}
	if w == 0 {
		for i, j := range idx {
			a := va
			if j >= 0 {
				a = *(*W)(unsafe.Add(s, int(j)*size))
			}
			*(*W)(unsafe.Add(d, i*size)) = a
		}
		return
	}
	for i, j := range idx {
		a, b := va, vb
		if j >= 0 {
			e := unsafe.Add(s, int(j)*size)
			a, b = *(*W)(e), *(*W)(unsafe.Add(e, w))
		}
		o := unsafe.Add(d, i*size)
		*(*W)(o) = a
		*(*W)(unsafe.Add(o, w)) = b
	}
}
