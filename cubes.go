package pad

// Cubes: the three innermost levels taken as one plane of the blocks
// kernel (KERNELS.md item 18). Where tiny planes are padded on their own
// axis too (uint8 [3220, 2, 2, 3] reflected to [3220, 3, 3, 7]), the
// executor made each block of the level above them (a cube of 63 bytes)
// segment by segment: a call for its run of planes, copies for its pad
// planes, about 20 ns each, 80-240x the memmove of the output. A cube of
// at most blocksInMax bytes in and out is one plane of a table built from
// its element map, made with every other cube of the run in one call; tiny
// cubes go in groups of consecutive ones (groupsOf), as tiny planes do.
// In process, plans with and without the tables alternated 7 rounds, 160
// random rank-4 geometries (uint8 to float64, cubes of up to 1 KiB, every
// mode, zero and nonzero values, about 200 KB out) took 0.02-1.07x the
// time, median 0.30x, at the default level (AVX-512 with VBMI) and
// 0.02-1.02x, median 0.34x, at the AVX2 level; those over 1.0x take no
// table (noise). uint8 [3220, 2, 2, 3]: 82 -> 2.0x memmove (AVX2: 240 ->
// 2.2x); int16 [1666, 3, 1, 2] zero-padded to [1666, 5, 3, 5] 106 -> 2.0x
// at the AVX2 level.

// cubeMap returns the element map of the cubes of levels lv (three
// levels, input strides strides) at element size bytes, and the input
// bytes a cube reaches; nil where that is more than inMax or the strides
// do not step forward.
func cubeMap(lv []level, strides []int, size, inMax int) (out []int32, inLen int) {
	if !kernelSize(size) {
		return nil, 0
	}
	span := 0 // the input elements a cube reaches
	for i := range lv {
		if lv[i].inLen == 0 || strides[i] <= 0 {
			return nil, 0
		}
		span += (lv[i].inLen - 1) * strides[i]
	}
	span += strides[2]
	if span*size > inMax {
		return nil, 0
	}
	return indexMap(lv, strides, span, lv[0].outLen*lv[0].blk), span * size
}

// cubeTables returns the blocks tables of the cubes of the three innermost
// levels of levels (input strides strides, the last four levels') at
// element size bytes: for each cube (nil for cubes of more than
// blocksInMax bytes out or in, or rows wider than the blocks kernel's),
// and for groups of consecutive cubes of at most shuffleMax bytes out (as
// many as fit blocksInMax bytes in and out, and the longest run of cubes
// the level above passes, segmentRunMax). The AVX-512 level with VBMI
// takes them by the AVX2 kernel too (byAVX2): its paths for such cubes
// are the executor's.
func cubeTables(levels []level, strides []int, size int) (one *blockTable, groups *blockGroup) {
	up, cube, cubeStrides := &levels[0], levels[1:], strides[1:]
	lv := &cube[2]
	width, row := cube[0].outLen*cube[0].blk*size, lv.outLen*lv.blk*size
	if lv.row.kind == rowGeneral || width > blocksInMax || row > blockValueRowMax {
		return nil, nil
	}
	out, inLen := cubeMap(cube, cubeStrides, size, blocksInMax)
	if out == nil {
		return nil, nil
	}
	takesValue := valueCount(out) > 0
	if row > blockRowMax && !takesValue {
		return nil, nil
	}
	if width >= 32 && inLen >= 16 {
		if one = blocksOf(out, width, inLen, size); one != nil {
			one.takesValue, one.byAVX2 = takesValue, true
		}
	}
	if width <= shuffleMax || one == nil {
		gout, g, gw, gin := groupsOf(out, width, inLen, strides[0], size, blocksInMax, blocksInMax, segmentRunMax(up))
		if gout != nil && gw >= 32 && gin >= 16 {
			if t := blocksOf(gout, gw, gin, size); t != nil {
				t.takesValue, t.byAVX2 = takesValue, true
				groups = &blockGroup{*t, planeGroup{g, strides[0] * size}}
			}
		}
	}
	return one, groups
}
