package pad

import (
	"math"
	"math/bits"
	"slices"
)

// Small planes of narrow rows past the shuffle kernel's 128 bytes (uint8
// 7x7 edge-padded by 3 to 13x13, uint8 14x14 to 16x16, int16 7x7 to 9x9)
// whose every byte comes from the input are made 64 bytes at a time: the
// input plane, at most 256 bytes, is loaded once and each 64-byte block of
// the output plane is one permutation of it (two and a blend past 128
// bytes; KERNELS.md item 16), where the shuffle kernel stores a row of 9
// to 60 bytes at a time. On a Zen 5, the plans with and without the tables
// alternated in one process: uint8 [1, 256, 7, 7] edge-, reflect- or
// wrap-padded by 3 took 0.39-0.41x the time (3.5x the memmove of the
// output -> 1.4x), uint8 [1, 256, 14, 14] edge-padded by 1 0.38x (3.5 ->
// 1.3x), int16 [1, 256, 7, 7] padded by 1 to 3 0.51-0.55x, float64
// [1, 256, 3, 3] reflected by 1 (40-byte rows) 0.84x; over 198
// geometries of inputs up to 128 bytes (uint8 to float64 [1, 128, h, w],
// planes of 2x9 to 11x11, edge, reflect, wrap and symmetric padding by 1
// to 3) a geometric mean of 0.49x, and over the 135 of a second set
// (planes of 4x7 to 15x15, inputs up to 256 bytes) 0.47x, none above 0.76x.

// chunksMax is the most blocks of a plane the chunks kernel makes: it
// holds a plane's table in registers.
const chunksMax = 8

// chunkInMax is the longest input plane of the chunks kernel, in bytes:
// four vectors. Past 128 bytes a block takes two permutations and a blend,
// and a plane takes the kernel only if it has at least two rows a block:
// float64 [1, 256, 5, 5] edge-padded by 1 (7 rows, 7 blocks) took 1.23x
// the time of a row at a time, float32 7x7 (9 rows, 6 blocks) 0.95x,
// int16 11x11 wrapped by 1 (13 rows, 6 blocks) 0.75x.
const chunkInMax = 256

// chunkTable is the table of the planes of a level: width output bytes
// (more than 128, at most 64*chunksMax) from inLen input bytes (at most
// chunkInMax) each, as len(idx) blocks: block c at byte 64*c of the plane,
// the last at byte width-64 (it may overlap the one before), byte i of
// block c the input plane's byte idx[c][i].
type chunkTable struct {
	idx          [][64]byte
	width, inLen int
}

// chunkRowMax is the widest output row of the planes made by blocks: a
// row of 64 bytes or more is a block or more already, which the shuffle
// kernel stores whole (not measured against this kernel).
const chunkRowMax = 63

// chunkTableOf returns the block table of the planes of pl (rows of lv,
// rowStride input elements apart, elements stride apart) at element size
// bytes, or nil: planes of at most shuffleMax bytes out (planeTable) or
// more than 64*chunksMax, of more than chunkInMax bytes in (or more than
// shuffleMax with fewer than two rows a block), of rows wider than
// chunkRowMax bytes, or with a byte of the value.
func chunkTableOf(pl, lv *level, rowStride, stride, size int) *chunkTable {
	width := pl.outLen * pl.blk * size
	if width <= shuffleMax || width > 64*chunksMax || lv.outLen*lv.blk*size > chunkRowMax {
		return nil
	}
	out, inLen := planeMap(pl, lv, rowStride, stride, size, chunkInMax)
	return chunkTableFrom(out, width, inLen, pl.outLen, size)
}

// chunkTableFrom returns the chunks table of planes of width bytes (more
// than shuffleMax, at most 64*chunksMax) from inLen with the element map
// out (nil: none) at element size bytes and rows rows, or nil: more than
// chunkInMax bytes in, a byte of the value, or past shuffleMax bytes in
// fewer than two rows a block.
func chunkTableFrom(out []int32, width, inLen, rows, size int) *chunkTable {
	if out == nil || inLen > chunkInMax {
		return nil
	}
	t := &chunkTable{idx: chunkBlocks(out, width, size), width: width, inLen: inLen}
	if t.idx == nil {
		return nil // a byte of the value: the expand and shuffle kernels
	}
	if t.inLen > shuffleMax && rows < 2*len(t.idx) {
		return nil // two permutations a block: not for fewer than two rows a block
	}
	return t
}

// chunkBlocks returns the blocks of a plane of width bytes (at least 64)
// with the element map out at element size bytes: block c at byte 64*c,
// the last at width-64; nil where a byte takes the value.
func chunkBlocks(out []int32, width, size int) [][64]byte {
	var idx [][64]byte
	for o := 0; o < width; o += 64 {
		o = min(o, width-64)
		var b [64]byte
		for i := range b {
			j := out[(o+i)/size]
			if j < 0 {
				return nil
			}
			b[i] = byte(int(j)*size + (o+i)%size)
		}
		idx = append(idx, b)
	}
	return idx
}

// Planes of at most shuffleMax bytes out, which the shuffle kernel makes a
// plane a row (one or two stores of up to 64 bytes each), are made in
// groups of consecutive planes by the chunks kernel where that stores at
// most 0.7 times as many blocks (groupStoresMax), each group's input at
// most groupInMax bytes. On a Zen 5, 1024 planes of each, the two
// alternated in one process (medians of 5 runs): uint8 3x3
// edge-padded by 1 (14 planes a group) took 0.45x the time, uint8 4x4
// edge or reflect 0.55-0.65x, uint8 2x8 wrap 0.64x, int16 4x4 reflect
// 0.68x, float32 2x3 reflect 0.88x (7 blocks for 10 stores); int16 3x3
// (6 for 7) 0.93x, uint8 5x5 (4 for 5) 0.99x, float32 3x3 (5 for 6) 1.04x
// and uint8 7x7 (3 for 4) 1.14x, which keep the shuffle kernel. Groups of
// more input, two permutations a block, cost more than they save: uint8
// 4x4 planes took 1.22x the time in groups of 14 (224 bytes in) as in
// groups of 8.
const (
	groupInMax     = shuffleMax
	groupStoresMax = 0.7
)

// planeGroup is what the group tables share: planes consecutive planes
// taken as one plane of a kernel, their outputs following each other,
// their inputs srcPlane bytes apart.
type planeGroup struct{ planes, srcPlane int }

// of returns the whole groups of width bytes out among the planes pl
// (byte strides), if there is one and pl lies as the group assumes:
// outputs that follow each other, inputs srcPlane apart.
func (g planeGroup) of(pl planes, width int) (planes, bool) {
	if pl.n < g.planes || pl.src != g.srcPlane || pl.dst*g.planes != width {
		return planes{}, false
	}
	return planes{pl.n / g.planes, width, pl.src * g.planes}, true
}

// chunkGroup is the chunks kernel's table of groups (chunkGroupOf).
type chunkGroup struct {
	chunkTable
	planeGroup
}

// chunkGroupOf returns the block table of groups of the planes of pl
// (planeStride input elements apart; rows of lv, rowStride apart, elements
// stride apart) at element size bytes, or nil: planes of at most
// shuffleMax bytes out, which the shuffle kernel makes a plane a row (a
// store of at most 128 bytes a plane), taken as many to a plane of the
// chunks kernel as its limits allow (groupInMax bytes in, chunksMax
// blocks out), so that each store is a whole block. Planes whose bytes
// take the value keep the shuffle kernel.
func chunkGroupOf(pl, lv *level, planeStride, rowStride, stride, size int) *chunkGroup {
	if lv.outLen*lv.blk*size > chunkRowMax {
		return nil
	}
	out, g, width, inLen := groupedMap(pl, lv, planeStride, rowStride, stride, size, groupInMax, 64*chunksMax, math.MaxInt)
	if out == nil || width <= shuffleMax || slices.Min(out) < 0 {
		return nil
	}
	if blocks, stores := (width+63)/64, g*((width/g+63)/64); float64(blocks) > groupStoresMax*float64(stores) {
		return nil // too few stores saved (groupStoresMax)
	}
	return &chunkGroup{chunkTable{chunkBlocks(out, width, size), width, inLen}, planeGroup{g, planeStride * size}}
}

// groupedMap returns the element map of as many consecutive planes of pl
// (planeStride input elements apart; planeMap for the rest) as reach at
// most inMax bytes of input and make at most outMax bytes of output, taken
// as one plane, with their number, output width and input length in
// bytes (elements that take the value stay -1); nil for planes of more
// than shuffleMax bytes out and for fewer than two planes.
func groupedMap(pl, lv *level, planeStride, rowStride, stride, size, inMax, outMax, most int) (out []int32, g, width, inLen int) {
	w := pl.outLen * pl.blk * size
	if w > shuffleMax || planeStride <= 0 {
		return nil, 0, 0, 0
	}
	one, in := planeMap(pl, lv, rowStride, stride, size, inMax)
	return groupsOf(one, w, in, planeStride, size, inMax, outMax, most)
}

// groupsOf is groupedMap for planes of w bytes out from in bytes in with
// the element map one (nil: none), planeStride input elements apart.
func groupsOf(one []int32, w, in, planeStride, size, inMax, outMax, most int) (out []int32, g, width, inLen int) {
	if one == nil {
		return nil, 0, 0, 0
	}
	g = min((inMax-in)/(planeStride*size)+1, outMax/w, most)
	if g < 2 {
		return nil, 0, 0, 0
	}
	out = make([]int32, 0, g*len(one))
	for p := range g {
		for _, e := range one {
			if e >= 0 { // value bytes stay -1
				e += int32(p * planeStride)
			}
			out = append(out, e)
		}
	}
	return out, g, g * w, (g-1)*planeStride*size + in
}

// planeChunksGo is the Go version of the chunks kernel: pl.n planes, plane
// p at p*pl.dst in dst from p*pl.src in src.
func planeChunksGo(dst, src []byte, pl planes, t *chunkTable) {
	for p := range pl.n {
		d, s := dst[p*pl.dst:], src[p*pl.src:]
		for c := range t.idx {
			o := min(64*c, t.width-64)
			for i, k := range t.idx[c] {
				d[o+i] = s[k]
			}
		}
	}
}

// Without VBMI (the AVX2 level) a byte shuffle reaches 16 bytes, not 256:
// the blocks kernel (planeBlocksAVX2, KERNELS.md item 18) makes small
// planes of rows of up to 24 bytes 32 bytes at a time, each block two
// shuffles of two 16-byte windows of the input plane, which most blocks of
// such planes fit (their rows come from at most three consecutive input
// rows, or from the plane's edge rows), where the narrow shuffle kernel
// stores each row twice. At the AVX2 level on a Zen 5, the plans with and
// without the tables alternated in one process: 53 geometries (uint8,
// int16 and float32 planes of 4x4 to 28x28, edge, reflect and wrap by 1
// to 3) 0.52-1.0x the time, median 0.78x (uint8 [1, 740, 7, 7]
// edge-padded by 1: 5.7 -> 3.2x memmove).

// blocksMax*32 is the widest output plane of the blocks kernel, in bytes.
const blocksMax = 32

// blocksInMax is the longest input plane of the blocks kernel, in bytes,
// but for large planes (blocksLargeMax).
const blocksInMax = 1 << 10

// blocksLargeMax is the widest output plane of the blocks tables of single
// planes (blockTableOf), and the longest input plane of those over
// 32*blocksMax bytes, which take a table only where largeBlocksPay.
const blocksLargeMax = 4 << 10

// largeBlocksPay reports whether planes of more than 32*blocksMax bytes
// out, width wide with rows of row bytes, take a blocks table: rows of at
// most 24 bytes, and rows of 33 to 46 bytes that take the value in planes
// of at most 2 KiB. At the AVX2 level, in process (plans with and without
// such tables alternated 7 rounds, about 400 KiB out), 216 uint8, int16
// and float32 planes of 40x8 to 300x3 padded by 1 or 2 in every mode took
// 0.04-1.24x the time, median 0.99x: uint8 [1, 271, 300, 3] reflected by 1
// 44 -> 1.6x memmove, uint8 [1, 279, 120, 10] edge-padded by 1 3.8 -> 2.2x,
// int16 [1, 223, 100, 7] 2.9 -> 2.0x; the slowest constant int16 planes
// that the fills and the narrow kernel made at 1.6-2.1x memmove (int16
// [1, 125, 200, 4] padded by 2 1.24x, [1, 139, 120, 10] by 1 1.13x).
// Rows of 26 to 32 bytes took up to 1.25x (int16 [1, 117, 120, 10] padded
// by 2, uint8 [1, 174, 80, 24]), hence 24. Constant uint8 and int16
// planes of 34- to 46-byte rows over 1 KiB (uint8 28x28 padded by 3 to
// 40x40 by 2, int16 17x17 by 3) took 0.64-0.90x the time, 48-byte rows
// 1.05-1.23x and 44-byte ones 1.05 in planes of 3.6 KiB.
func largeBlocksPay(width, row int, takesValue bool) bool {
	return row <= 24 || takesValue && row > 32 && row <= 46 && width <= 2<<10
}

// blockTable is the blocks kernel's table of the planes of a level: width
// output bytes (32 to blocksLargeMax) from inLen input bytes (at least 16)
// each, as len(ent) blocks of 32 bytes inside the plane, made in order:
// the bytes of the plane are those of the last block that writes them
// (blocksOf).
type blockTable struct {
	ent          []blockEntry
	width, inLen int
	takesValue   bool // its planes take the value (the kernel ORs in a nonzero one)
	// byAVX2: the AVX-512 level with VBMI, whose set has no blocks
	// kernel, makes these planes by the AVX2 level's (vbmiRowBlocksMax);
	// avx2Fallback: it does where its own plane kernels decline them
	// (vbmiValueBlocksMax).
	byAVX2, avx2Fallback bool
}

// blockEntry is a block of a blockTable, as the kernel reads it: byte k of
// the block, at byte at of the output plane, is pick(s[lo:lo+16], a[k]) |
// pick(s[hi:hi+16], b[k]) of the input plane s, ORed, for a nonzero
// value, with pick(pat[:16], v[k]) of the value's pattern (planeBlocksGo):
// v[k] is (at+k)%16 where byte k takes the value, else 0x80, and a[k] and
// b[k] are 0x80 there.
type blockEntry struct {
	a, b, v    [32]byte
	lo, hi, at int64
	_          int64
}

// blockTableOf returns the blocks table of the planes of pl (rows of lv,
// rowStride input elements apart, elements stride apart) at element size
// bytes, or nil: planes of fewer than 32 bytes out or more than
// blocksLargeMax, of fewer than 16 bytes in or more than blocksInMax
// (blocksLargeMax for planes of more than 32*blocksMax bytes out, which
// take a table only where largeBlocksPay), of rows wider than blockRowMax
// bytes (blockValueRowMax where they take the value), or that blocks of
// two 16-byte windows do not make (blocksOf).
// Planes that take the value get a table too (takesValue): both shuffles
// give 0 at its bytes, into which the kernel ORs a nonzero value's
// pattern (blockEntry.v). At the AVX2 level, in process, against the
// fills and the narrow kernel (7 runs, about 400 KiB out): 49 zero-padded
// uint8, int16 and float32 planes of 2x2 to 20x20, pads of 1 to 11, took
// 0.35-1.02x the time, median 0.68x (uint8 [1, 2844, 6, 6] padded by 3
// 2.75 -> 1.42x memmove); those near 1.0 are the planes of at most 128
// bytes that groups (blockGroupOf) take either way. With a nonzero value
// (3), 91 uint8, int16, float32 and float64 planes of 2x2 to 28x28 padded
// by 1 to 3 took 0.35-1.17x the time, median 0.89x (uint8 [1, 5056, 7, 7]
// padded by 1 5.3 -> 1.9x memmove), the slowest uint8 rows of 30 and 31
// bytes (1.07-1.17x), as with a zero value (blockRowMax).
func blockTableOf(pl, lv *level, rowStride, stride, size int) *blockTable {
	width, row := pl.outLen*pl.blk*size, lv.outLen*lv.blk*size
	large := width > 32*blocksMax
	if width < 32 || width > blocksLargeMax || row > blockValueRowMax {
		return nil
	}
	inMax := blocksInMax
	if large {
		inMax = blocksLargeMax
	}
	out, inLen := planeMap(pl, lv, rowStride, stride, size, inMax)
	if out == nil || inLen < 16 {
		return nil
	}
	takesValue := slices.Min(out) < 0
	wide := row > blockRowMax && !takesValue // planes of at most 1 KiB of elements of one or two bytes only (blockRowMax)
	if wide && (large || size > 2) || large && !largeBlocksPay(width, row, takesValue) {
		return nil
	}
	t := blocksOf(out, width, inLen, size)
	if t == nil || wide && t.blocksPast(5) {
		return nil // wide rows whose blocks make part of their bytes: wrapped ones
	}
	t.takesValue = takesValue
	t.byAVX2 = !takesValue && (size <= 2 || pl.inLen < rowChunksPlaneMin) && (row <= vbmiLargeBlocksMax || !large && row <= vbmiPlaneBlocksMax)
	t.avx2Fallback = takesValue && size <= 2 && (row <= vbmiLargeBlocksMax || !large && row <= vbmiValueBlocksMax)
	return t
}

// blocksPast reports whether t's blocks pass quarters/4 blocks per 32
// bytes of its planes: blocks that make part of their bytes each.
func (t *blockTable) blocksPast(quarters int) bool {
	return 4*32*len(t.ent) > quarters*t.width
}

// narrowGroupMax is the largest plane, in bytes out, that gets a blocks
// table of groups (blockGroupOf) though a shuffle kernel takes it as one
// narrow row: since the blocks kernel went by batches such planes made
// many to a block take less time in groups. At the AVX2 level, in process
// (plans with and without such groups alternated 7 rounds), 80 random
// uint8, int16 and float32 planes of 1x1 to 4x6 padded to at most 64 bytes:
// planes of up to 16 bytes 0.33-1.05x the time (uint8 [22222, 2, 2] padded
// to [22222, 3, 3] with 3 6.3 -> 2.1x memmove), of 21 to 30 bytes
// 0.68-1.10x, of 32 to 64 bytes 0.92-2.1x (uint8 [6250, 8, 4] edge-padded
// 1.16-1.17x in reruns); with this bound 0.43-1.03x, median 1.00x, and
// without VBMI 0.45-1.03x; uint8 [25384, 2, 1, 2] reflected to [25385, 2,
// 1, 4] 5.2 -> 1.85x memmove.
const narrowGroupMax = 24

// blockGroup is the blocks kernel's table of groups (blockGroupOf).
type blockGroup struct {
	blockTable
	planeGroup
}

// blockGroupOf returns the blocks table of groups of the planes of pl
// (chunkGroupOf's arguments), or nil: planes of at most shuffleMax bytes
// out taken as many to a plane of the blocks kernel as its limits allow.
// Planes that take the value get a table too (takesValue): both shuffles
// of a block give 0 where an index has bit 7 set (VPSHUFB), and the
// kernel ORs in a nonzero value. At the AVX2 level, alternated in one
// process (5 runs, 512 planes), zero-padded uint8 planes of 5x5 to 9x9
// took 0.52-0.76x the time with them, int16 4x4 and 5x5 0.77-0.90x. Those
// more than three quarters value had none (uint8 2x8 padded by 2 1.10x,
// int16 2x2 by 2 1.27x the time then) until the kernel went by batches:
// now, in process (plans with and without such groups alternated 7
// rounds), 60 uint8, int16 and float32 planes of 1x1 to 5x5 padded by 1
// to 4 with 3 took 0.03-1.03x the time, median 1.00x (uint8 [1, 45511,
// 1, 1] padded by 1 67.7 -> 2.2x memmove, [1, 11377, 2, 2] by 2 13.7 ->
// 2.0x, int16 [1, 22755, 1, 1] by 1 13.6 -> 1.8x), and with AVX-512 but
// not VBMI, zero-padded, 0.03-1.04x (one 1.22x that two reruns put at
// 1.00-1.03x).
// The plan builds it only for planes that neither the narrow nor the word
// shuffle kernel takes a plane a row (buildTables): at the AVX2 level
// (GODEBUG=cpu.avx512f=off, a Zen 5, 333 planes of each, with and without
// groups alternated in one process, 5 runs) those took 0.95-1.63x the time
// in groups, the others 0.08-0.93x: uint8 2x2 and 3x3 planes padded by 2,
// made row by row before, 12.8-20.9 -> 1.3-1.6 us, int16 2x2 padded by 2
// 0.58-0.65x, int16 4x4, 5x5, 2x8 and 3x6 padded by 1 0.82-0.89x;
// BenchmarkExtra at that level (6 alternated runs) uint8 [1, 512, 7, 7]
// edge-padded by 1 1.89 -> 1.65 us (groups of 12 for the planes' own
// blocks table), int16 [1, 512, 5, 5] 2.44 -> 1.95 us. Planes of at most
// narrowGroupMax bytes out get it either way.
func blockGroupOf(pl, lv *level, planeStride, rowStride, stride, size, most int) *blockGroup {
	if lv.outLen*lv.blk*size > blockRowMax {
		return nil
	}
	out, g, width, inLen := groupedMap(pl, lv, planeStride, rowStride, stride, size, blocksInMax, 32*blocksMax, most)
	t := blockGroupFrom(out, g, width, inLen, planeStride*size, size)
	if t != nil && t.takesValue && width <= g*vbmiValueGroupMax {
		t.byAVX2 = true
	}
	return t
}

// vbmiValueGroupMax is the largest plane, in bytes out, whose groups that
// take the value the AVX-512 level with VBMI makes by the AVX2 blocks
// kernel (blockTable.byAVX2): its chunks kernel takes no value, and its
// shuffle kernel makes such planes one a row. In process there (with and
// without it alternated 7 rounds, two passes), 80 random constant uint8,
// int16 and float32 planes of 1x1 to 4x6 padded to at most 40 bytes:
// uint8 planes of 12 to 16 bytes took 0.34-0.77x the time (uint8 [16666,
// 3, 1] padded to [16666, 6, 2] with zeros 5.4 -> 1.8x memmove), the other
// planes of at most 16 bytes 0.98-1.03x; a bound of 24 took planes of 18
// to 24 bytes to 1.15-1.19x.
const vbmiValueGroupMax = 16

// blockGroupFrom returns the blocks table of groups of g planes, srcPlane
// bytes apart in the input, width bytes out from inLen in with the
// element map out (nil: none) at element size bytes, or nil.
func blockGroupFrom(out []int32, g, width, inLen, srcPlane, size int) *blockGroup {
	if out == nil || width < 32 || inLen < 16 {
		return nil // less than the blocks kernel's smallest plane
	}
	t := blocksOf(out, width, inLen, size)
	if t == nil {
		return nil
	}
	t.takesValue = valueCount(out) > 0
	return &blockGroup{*t, planeGroup{g, srcPlane}}
}

// valueCount returns the elements of the map out that take the value.
func valueCount(out []int32) int {
	n := 0
	for _, e := range out {
		if e < 0 {
			n++
		}
	}
	return n
}

// blocksOf returns the blocks table of planes of width bytes (at least 32)
// from inLen (at least 16) with the element map out at element size
// bytes, or nil where a block's sources lie in no two windows. Elements
// that take the value (-1) are made 0.
//
// Blocks go in order, each made whole where two windows hold its sources.
// Where none does, a block may make only its first bytes (the rest 0, made
// again by the blocks after it, which start where it stops): the top pad
// row of a wrapped plane comes from its last input row, the rows below it
// from its first ones. At the plane's end, the last block (which must end
// at width) may make only its last bytes, if a whole block ending where
// those start, written after it, makes the bytes before them again: the
// bottom pad row of a wrapped plane, from its first input row, after rows
// from its last ones. uint8 7x7 planes wrapped by 1 get a table so.
func blocksOf(out []int32, width, inLen, size int) *blockTable {
	t := &blockTable{width: width, inLen: inLen}
	for o := 0; o < width; {
		// The block at o, or where two windows do not hold its sources
		// one that starts up to 31 bytes earlier (overlapping the block
		// before, which writes the same bytes there) and so takes fewer
		// rows: a mirrored or wrapped row far from its neighbours.
		at := min(o, width-32)
		e, ok := blockAt(out, size, at, inLen, 0, 32)
		for !ok && at > max(0, o-31) {
			at--
			e, ok = blockAt(out, size, at, inLen, 0, 32)
		}
		if ok {
			t.ent = append(t.ent, e)
			o = at + 32
			continue
		}
		if o+32 <= width {
			// Its longest first part that two windows make.
			n := 31
			for ; n > 0; n-- {
				if e, ok = blockAt(out, size, o, inLen, 0, n); ok {
					break
				}
			}
			if n == 0 {
				return nil
			}
			t.ent = append(t.ent, e)
			o += n
			continue
		}
		// The last block, made from a byte c past its first (whose sources
		// from c on two windows hold), then the whole block that ends at
		// c, which makes the bytes before c again.
		at = width - 32
		for c := at + 1; c < width; c++ {
			last, ok := blockAt(out, size, at, inLen, c-at, 32)
			if !ok || c < 32 {
				continue
			}
			if fix, ok := blockAt(out, size, c-32, inLen, 0, 32); ok {
				t.ent = append(t.ent, last, fix)
				return t
			}
		}
		return nil
	}
	return t
}

// blockAt returns the entry of the block at byte at of a plane whose
// element map is out (planeMap; -1, the value, made 0) at element size
// bytes, from an input plane of inLen bytes, that makes its bytes from
// from to to-1 (0 <= from < to <= 32; its other bytes are 0): its windows,
// the first from its lowest source and the second from the lowest source
// past the first, both inside the input plane; ok is false if those do
// not hold every source.
func blockAt(out []int32, size, at, inLen, from, to int) (e blockEntry, ok bool) {
	var src [32]int // -1: a byte of the value, which must be zero, or not made
	lo, hi := inLen, 0
	for i := range src {
		j := int32(-1)
		if i >= from && i < to {
			j = out[(at+i)/size]
		}
		if j < 0 {
			src[i] = -1
			continue
		}
		src[i] = int(j)*size + (at+i)%size
		lo, hi = min(lo, src[i]), max(hi, src[i])
	}
	w0 := min(lo, inLen-16)
	w1 := w0
	for _, k := range src {
		if k >= w0+16 && (w1 == w0 || k < w1) {
			w1 = k
		}
	}
	w1 = min(w1, inLen-16)
	if hi >= w1+16 {
		return e, false
	}
	e = blockEntry{lo: int64(w0), hi: int64(w1), at: int64(at)}
	for i, k := range src {
		// Both lanes hold the first window in one register and the
		// second in another: a picks from the first, b from the second.
		e.a[i], e.b[i], e.v[i] = 0x80, 0x80, 0x80
		if k < 0 {
			if i >= from && i < to {
				e.v[i] = byte((at + i) % 16) // the value's byte: pat's period divides 16
			}
			continue // zero from both shuffles
		}
		if k >= w0 && k < w0+16 {
			e.a[i] = byte(k - w0)
		} else {
			e.b[i] = byte(k - w1)
		}
	}
	return e, true
}

// blocksBatchBytes is the output of the planes the blocks kernel makes a
// block at a time (its batch): they stay in the L1 cache while it goes
// over their blocks.
const blocksBatchBytes = 8 << 10

// blockRowMax is the widest output row of the planes made by the blocks
// kernel, blockValueRowMax that of planes that take the value (which the
// narrow and word shuffle kernels blend in, and the fills make the pad
// rows of); the bounds were measured with a zero value. With the
// kernel's table loaded for each plane (before its batches) rows of 48
// bytes took up to 2.6x the time by it, uint8 rows of 30 bytes 1.2x, rows
// of 26 to 28 bytes 0.96-1.04x, and the bound was 24.
// By batches, at the AVX2 level, in process (7 runs, about 400 KiB out):
// 95 uint8, int16, float32 and float64 geometries that these bounds take
// and 24 did not took 0.55-1.12x the time, median 0.86x (int16
// [1, 1211, 7, 7] zero-padded by 3 0.55x; uint8 [1, 426, 27, 27] padded by
// 2, 31-byte rows, 1.03-1.12x); wider rows that take no value up to 1.71x
// (float32 rows of 36 to 64 bytes, which the word kernel makes, and
// wrapped int16 rows, whose blocks make only part of their bytes), but
// zero-padded rows of 36 to 64 bytes 0.66-0.98x. Those were against the
// narrow and word shuffle kernels; rows of elements of one or two bytes
// of 33 to 64 bytes went by the narrow kernel (up to 32 bytes in) or by
// the ends kernel, 1.7 ns a row: they take the blocks kernel where
// their blocks make whole 32 bytes (at most 1.25 blocks per 32 bytes, as
// rowBlocksOf: edge and mirrored rows, not wrapped ones) in planes of at
// most 1 KiB. At the AVX2 level, in process (7 alternated rounds), 120
// random planes of rows of 33 to 64 bytes out (every type, edge, reflect,
// wrap) took 0.55-1.02x the time, int16 and uint8 edge and reflect
// planes median 0.71-0.81x (int16 [682, 3, 19] reflected to [682, 7, 21]
// 4.1 -> 2.0x memmove), the others 0.98-1.02x; with AVX-512 but not
// VBMI 0.55-1.05x. Without these bounds, wrapped rows and those of
// elements of 4 and 8 bytes took up to 1.65x.
const (
	blockRowMax      = 32
	blockValueRowMax = 64
)

// planeBlocksGo is the Go version of the blocks kernel: pl.n planes, plane
// p at p*pl.dst in dst from p*pl.src in src, by the table's entries as the
// kernel reads them, with the value's pattern pat ORed in unless pat is
// nil (a zero value).
func planeBlocksGo(dst, src []byte, pl planes, t *blockTable, pat *[32]byte) {
	pick := func(w []byte, x byte) byte {
		if x&0x80 != 0 {
			return 0
		}
		return w[x&15]
	}
	for p := range pl.n {
		d, s := dst[p*pl.dst:], src[p*pl.src:]
		for c := range t.ent {
			e := &t.ent[c]
			first, second := s[e.lo:e.lo+16], s[e.hi:e.hi+16]
			for i := range 32 {
				x := pick(first, e.a[i]) | pick(second, e.b[i])
				if pat != nil {
					x |= pick(pat[:16], e.v[i])
				}
				d[int(e.at)+i] = x
			}
		}
	}
}

// rowBlockTable is the blocks table of rows of the innermost level taken
// rows at a time as a plane of the blocks kernel (rowBlocksOf): consecutive
// input rows srcStride bytes apart make consecutive output rows of
// width/rows bytes.
type rowBlockTable struct {
	blockTable
	rows, srcStride int
}

// rowBlocksOf returns the blocks table of the rows of lv (elements stride
// apart) from input rows rowStride elements apart at element size bytes,
// as many to a plane of the blocks kernel as fit blocksInMax bytes in and
// out (in whole blocks where that leaves more than one), or nil: rows of
// more than rowTableMax bytes out, of rowsBlocksMin rows or fewer to a
// plane, that blocks of two 16-byte windows do not make (blocksOf), or
// whose blocks make few bytes each: more than 1.25 blocks per 32 bytes
// (float32 rows of 5 elements wrapped by 1, 1.37 blocks, took 1.29x the
// time), 2.5 for rows of at most 16 bytes (wrapped rows, whose pads come
// from their far end: at the AVX2 level, in process, 26 uint8, int16 and
// float32 geometries of 1.25 to 2.5 took 0.52-1.01x the time, median
// 0.59x, uint8 [11112, 11] wrapped to [11117, 13] 4.3 -> 2.3x memmove; 110
// of rows of 17 to 24 bytes 0.71-1.28x, median 1.01x). Rows of a few
// bytes, a row at a time, take a few stores each (uint8 [68266, 2]
// reflected by 1 on axis 1: 64x memmove at the AVX2 level). At that level,
// in process (the rows with and without the table alternated 7 rounds,
// about 200 KiB out), the 40 slowest of 600 random geometries (rank 2 to
// 4, every mode, 1 to 3 pads) took 0.03-1.07x the time, median 0.08x (30
// of them 33-66x memmove before, 1.6-2.1x after; the other 10 take no
// table); 43 chosen ones (uint8 to float64 rows of 1 to 22 elements, rank
// 2 to 4, every mode) 0.04-1.05x, median 0.79x (float32 [16384, 3] padded
// by 1 with a value 3.2 -> 2.2x memmove), and with AVX-512 but not VBMI
// 0.05-1.05x, median 0.82x.
func rowBlocksOf(lv *level, rowStride, stride, size int) *rowBlockTable {
	width, k := rowsFit(lv, rowStride, stride, size, blocksInMax, blocksInMax)
	if k <= rowsBlocksMin {
		return nil
	}
	if m := 32 >> min(bits.TrailingZeros(uint(width)), 5); k > m {
		k -= k % m // planes of whole blocks
	}
	if k*width < 32 {
		return nil
	}
	out, inLen := rowsMap(lv, k, rowStride, stride, size, blocksInMax)
	if out == nil || inLen < 16 {
		return nil
	}
	t := blocksOf(out, k*width, inLen, size)
	if t == nil || t.blocksPast(5) && (width > 16 || t.blocksPast(10)) {
		return nil // or blocks that make a few bytes each
	}
	t.takesValue = slices.Min(out) < 0
	t.byAVX2 = width <= vbmiRowBlocksMax
	return &rowBlockTable{*t, k, rowStride * size}
}

// vbmiRowBlocksMax and vbmiPlaneBlocksMax (vbmiLargeBlocksMax for planes
// over 1 KiB) are the widest rows, in bytes, of the row blocks tables
// (rowBlocksOf) and the planes' blocks tables (blockTableOf) that the
// AVX-512 level with VBMI, whose set has no blocks
// kernel, makes by the AVX2 level's (blockTable.byAVX2): planes the chunks
// kernel does not make (that take the value, or of more than chunkInMax
// bytes in), where its own paths go a row at a time. In process there,
// with and without it alternated 7 rounds:
//   - Row tables: 24 geometries of rows of 2 to 24 bytes (rank 2 and 3,
//     mostly constant padding): rows of up to 16 bytes 0.18-1.09x the
//     time, median 0.49x (uint8 [224, 224, 3] padded by 1 on axis 2 with
//     3: 8.5 -> 2.1x memmove), rows of 24 bytes 1.11-1.25x (float32
//     [16384, 4] padded by 1 with zeros, int16 [16384, 8] by 2).
//   - Plane tables that take no value, of elements of one or two bytes,
//     rows of up to 20 bytes (16 in planes over 1 KiB): 114 uint8 and
//     int16 planes of 3x3 to 200x2 edge-, reflect- or wrap-padded by 1
//     to 3 took 0.22-1.04x the time, median 0.99x (uint8 [1, 162, 200,
//     2] by 1 7.3 -> 1.7x memmove); the 80 slowest of 1156 random
//     geometries 0.14-1.06x (uint8 [456, 144, 2] edge-padded 14 -> 1.9x).
//     Left out, each measured slower by it: constant planes (1.07-2.4x,
//     which the expand and shuffle kernels make), uint8 rows of 22 to 32
//     bytes (1.16-1.45x), and rows of 19 and 20 bytes in planes over 1 KiB
//     (1.05-1.23x).
//   - Plane tables of elements of 4 and 8 bytes, as above, of planes of
//     fewer than rowChunksPlaneMin input rows and more than chunkInMax
//     bytes in, which its shuffle kernel made a row at a time: 83
//     float32 and float64 planes of 27 to 127 rows of 8 to 20 bytes
//     (edge, reflect, wrap) took 0.34-1.02x the time, median 0.73x
//     (float32 [40, 77, 1] padded to [40, 81, 2] 5.9 -> 2.0x memmove,
//     [12, 83, 2] reflected to [12, 87, 4] 6.3 -> 4.5x); planes of 128
//     rows or more 0.8-1.8x, most over 1.1x (their runs take the chunks
//     kernel, rowChunksPlaneMin). An earlier round had put float32 rows
//     of 16 to 20 bytes at 1.05-1.17x by it, on planes of 3x3 to 40x8,
//     most of which the chunks kernel takes.
//
// vbmiValueBlocksMax is the widest row, in bytes, of planes of elements of
// one or two bytes that take the value and that level makes by the AVX2
// blocks kernel (avx2Fallback; vbmiLargeBlocksMax in planes over 1 KiB):
// those with no pad rows before its shuffle kernel takes them a row at a
// time, those with pad rows where its kernels decline them (the expand
// kernel wants dst on a 64-byte boundary). In process there, with and
// without it alternated 7 rounds: 80 uint8 and int16 planes of the first
// kind 0.14-1.02x the time, median 0.71x (uint8 [1, 64, 79, 1] padded to
// [1, 66, 79, 2] with zeros 23 -> 3.2x memmove); 637 geometries of both
// kinds and others 0.12-1.14x, median 1.00x (of the 6 over 1.04x, 5 take
// no such table, the sixth took 0.98-1.01x in reruns). Elements of 4 and
// 8 bytes took 1.10-1.40x by it, rows of 22 bytes in planes over 1 KiB
// 1.36-1.46x.
const (
	vbmiRowBlocksMax   = 16
	vbmiPlaneBlocksMax = 20
	vbmiLargeBlocksMax = 16
	vbmiValueBlocksMax = 24
)

// rowTableMax is the widest row, in bytes, of the row blocks tables and
// row chunks tables (rowBlocksOf, rowChunksOf), rowsBlocksMin and
// rowsChunksMin the fewest rows a plane of theirs holds.
const (
	rowTableMax   = 24
	rowsBlocksMin = 4
	rowsChunksMin = 7
)

// rowsFit returns the width in bytes of the rows of lv (elements stride
// apart, from input rows rowStride elements apart, at element size bytes)
// and how many of them a plane of a row table holds: as many as reach at
// most inMax bytes of input and make at most outMax of output; k is 0 for
// rows that take no row table (general rows, rows wider than rowTableMax,
// rows not read forward).
func rowsFit(lv *level, rowStride, stride, size, inMax, outMax int) (width, k int) {
	width = lv.outLen * lv.blk * size
	row := lv.inLen * stride // elements a row reaches
	if lv.row.kind == rowGeneral || width == 0 || width > rowTableMax || rowStride <= 0 || lv.inLen == 0 || row*size > inMax {
		return width, 0
	}
	// k rows: k*width bytes out, (k-1)*rowStride+row elements in.
	return width, min(outMax/width, (inMax/size-row)/rowStride+1)
}

// rowsMap returns the element map of k consecutive rows of lv (rowsFit's
// arguments) taken as one plane, and its input length in bytes, or nil
// past inMax bytes in (planeMap).
func rowsMap(lv *level, k, rowStride, stride, size, inMax int) (out []int32, inLen int) {
	pl := rowsLevel(lv, k)
	return planeMap(&pl, lv, rowStride, stride, size, inMax)
}

// rowsLevel returns the level of a plane of k consecutive rows of lv.
func rowsLevel(lv *level, k int) level {
	return level{segs: []segment{{kind: segSrc, n: k, step: 1}}, inLen: k, outLen: k, blk: lv.outLen * lv.blk}
}

// rowChunkTable is the chunks table of rows of the innermost level taken
// rows at a time as a plane of the chunks kernel (rowChunksOf), as
// rowBlockTable is the blocks kernel's.
type rowChunkTable struct {
	chunkTable
	rows, srcStride int
}

// rowChunksOf returns the chunks table of the rows of lv (rowBlocksOf's
// arguments) as many to a plane of the chunks kernel as fit 128 bytes in
// (one permutation a block) and 64*chunksMax out, or nil: rows of more
// than rowTableMax bytes out, of rowsChunksMin rows or fewer to a plane
// (rows of 20 to 22 bytes in, five or six to a plane: uint8 [30000, 22]
// edge-padded by 1 1.10x the time, float32 [20000, 5] 1.07x), planes of a
// block or less, or rows that take the value (chunkBlocks). With VBMI, in
// process (with and without the table alternated 7 rounds), 83 geometries
// of rows of 1 to 22 elements (a random survey's slowest and chosen ones)
// took 0.11-1.10x the time, median 0.98x: uint8 [68266, 2] reflected by 1
// on axis 1 11.2 -> 1.2x memmove, float32 [16384, 2] 2.4 -> 1.05x.
func rowChunksOf(lv *level, rowStride, stride, size int) *rowChunkTable {
	width, k := rowsFit(lv, rowStride, stride, size, 128, 64*chunksMax)
	if k <= rowsChunksMin || k*width <= 64 {
		return nil // the kernel's planes are two to chunksMax blocks
	}
	out, inLen := rowsMap(lv, k, rowStride, stride, size, 128)
	if out == nil {
		return nil
	}
	idx := chunkBlocks(out, k*width, size)
	if idx == nil {
		return nil
	}
	return &rowChunkTable{chunkTable{idx: idx, width: k * width, inLen: inLen}, k, rowStride * size}
}

// pieceRowChunksOf returns the chunks table of the rows of lv (rowBlocksOf's
// arguments) a row to a plane of the chunks kernel, or nil: for rows that
// the rows kernels make piece by piece in Go (rowsPiecesGo: mirrored units
// of sizes the reverse kernel does not take, or pads of several pieces), of
// more than 64 bytes out and at most 64*chunksMax, from at most chunkInMax,
// that take no value, and that no shuffle or wide table serves (the plan
// builds it only then). Such rows went a piece at a time: uint8 [518, 11,
// 22] reflected by 3 on axis 1 (22-byte units mirrored) took 8.4x
// memmove. With VBMI, in process (with and without the table alternated
// 7 rounds), 60 random geometries of rows of 3 to 40 elements a unit
// reflected, edge-padded or wrapped took 0.10-1.04x the time, median
// 0.99x, a quarter of them 0.10-0.22x (that one 8.4 -> 1.27x memmove,
// int16 [649, 3, 22] reflected by 2 11.8 -> 1.2x); the two at 1.04x, of
// rows the table does not take, 0.98-1.02x in reruns.
func pieceRowChunksOf(lv *level, rowStride, stride, size int) *rowChunkTable {
	r := &lv.row
	width := lv.outLen * lv.blk * size
	if !r.byPieces(size) || width <= 64 || width > 64*chunksMax || rowStride <= 0 {
		return nil
	}
	out, inLen := rowsMap(lv, 1, rowStride, stride, size, chunkInMax)
	if out == nil || slices.Min(out) < 0 {
		return nil
	}
	return &rowChunkTable{chunkTable{idx: chunkBlocks(out, width, size), width: width, inLen: inLen}, 1, rowStride * size}
}

// segmentRunMax returns the most blocks of lv that one segment of it reads
// from consecutive input blocks (a segSrc forward): the most planes the
// executor passes to a call of the planes below lv. Groups of planes
// whose outer axis is padded too (uint8 [484, 20, 2, 1] padded by 1 on
// axis 1, 20 planes a run, groups of 51) fit no run and went plane by
// plane: at the AVX2 level, in process, plans with groups of at most a
// run and without alternated 7 rounds, those of planes with no blocks
// table of their own took 0.21-0.36x the time (that one 57 -> 12x
// memmove), 15 others 0.95-1.04x; with a blocks table of their own (uint8
// 7x7 planes in runs of 10) 1.07-1.12x, so those keep groups of any size.
func segmentRunMax(lv *level) int {
	n := 0
	for _, s := range lv.segs {
		if s.kind == segSrc && s.step == 1 {
			n = max(n, s.n)
		}
	}
	return n
}
