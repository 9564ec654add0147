package pad

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
	if out == nil {
		return nil
	}
	t := &chunkTable{width: width, inLen: inLen}
	for o := 0; o < width; o += 64 {
		o = min(o, width-64)
		var b [64]byte
		for i := range b {
			j := out[(o+i)/size]
			if j < 0 {
				return nil // a byte of the value: the expand and shuffle kernels
			}
			b[i] = byte(int(j)*size + (o+i)%size)
		}
		t.idx = append(t.idx, b)
	}
	if t.inLen > shuffleMax && pl.outLen < 2*len(t.idx) {
		return nil // two permutations a block: not for fewer than two rows a block
	}
	return t
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
