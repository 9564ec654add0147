package pad

// Cubes: the three innermost levels taken as one plane of the blocks
// kernel (KERNELS.md item 18), or with VBMI of the chunks kernel (item 16).
// Where tiny planes are padded on their own axis too (uint8 [3220, 2, 2,
// 3] reflected to [3220, 3, 3, 7]), the executor made each block of the
// level above them (a cube of 63 bytes) segment by segment: a call for its
// run of planes, copies for its pad planes, about 20 ns each, 80-240x the
// memmove of the output. A cube of at most blocksLargeMax bytes in and out
// (past blocksInMax, of rows no wider than the blocks kernel's planes) is
// one plane of a table built from its element map, made with every other
// cube of the run in one call; tiny cubes go in groups of consecutive ones
// (groupsOf), as tiny planes do. In process, 160 random rank-4 geometries
// took 0.02-1.07x the time, median 0.30x (uint8 [3220, 2, 2, 3] 82 ->
// 2.0x memmove); the chunks kernel, the bounds and the other figures are
// in PERFORMANCE.md ("Tiny cubes").

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

// cubeTables are the tables of the cubes of a plan at one element size
// (cubeTablesOf); any of them may be nil.
type cubeTables struct {
	blocks      *blockTable // a cube a plane of the blocks kernel
	blockGroups *blockGroup // or groups of cubes (first)
	chunks      *chunkTable // with VBMI, by the chunks kernel
	chunkGroups *chunkGroup // or in groups (first)
}

// cubeTablesOf returns the tables of the cubes of the three innermost
// levels of levels (input strides strides, the last four levels') at
// element size bytes, or nil:
//   - blocks tables for each cube (none for cubes of more than
//     blocksLargeMax bytes out or in, nor for those of more than
//     blocksInMax with rows wider than the blocks kernel's planes'), and for
//     groups of consecutive cubes of at most shuffleMax bytes out, or too
//     small in for a table of their own (as many as fit blocksInMax bytes
//     in and out, and the longest run of cubes the level above passes,
//     segmentRunMax). The AVX-512 level with VBMI takes them by the AVX2
//     kernel too (byAVX2): its paths for such cubes are the executor's.
//   - for the chunks kernel, the same within its bounds (chunkTableOf's,
//     chunkGroupOf's), for cubes that take no value.
func cubeTablesOf(levels []level, strides []int, size int) *cubeTables {
	up, cube, cubeStrides := &levels[0], levels[1:], strides[1:]
	lv := &cube[2]
	width, row := cube[0].outLen*cube[0].blk*size, lv.outLen*lv.blk*size
	large := width > blocksInMax
	if lv.row.kind == rowGeneral || width > blocksLargeMax || large && row > blockValueRowMax {
		return nil
	}
	out, inLen := cubeMap(cube, cubeStrides, size, blocksLargeMax)
	if out == nil {
		return nil
	}
	takesValue := valueCount(out) > 0
	if large && row > blockRowMax && !takesValue {
		return nil
	}
	var t cubeTables
	most, cubeStride := segmentRunMax(up), strides[0]*size
	if width >= 32 && inLen >= 16 {
		if t.blocks = blocksOf(out, width, inLen, size); t.blocks != nil {
			t.blocks.takesValue, t.blocks.byAVX2 = takesValue, true
		}
	}
	if width <= shuffleMax || t.blocks == nil {
		gout, g, gw, gin := groupsOf(out, width, inLen, strides[0], size, blocksInMax, blocksInMax, most)
		if t.blockGroups = blockGroupFrom(gout, g, gw, gin, cubeStride, size); t.blockGroups != nil {
			t.blockGroups.byAVX2 = true
		}
	}
	if !takesValue && row <= chunkRowMax && planeChunksOn {
		if width > shuffleMax && width <= 64*chunksMax {
			t.chunks = chunkTableFrom(out, width, inLen, cube[0].outLen*cube[1].outLen, size)
		}
		if width <= shuffleMax {
			gout, g, gw, gin := groupsOf(out, width, inLen, strides[0], size, groupInMax, 64*chunksMax, most)
			if gout != nil && gw > shuffleMax {
				t.chunkGroups = &chunkGroup{chunkTable{chunkBlocks(gout, gw, size), gw, gin}, planeGroup{g, cubeStride}}
			}
		}
	}
	if t == (cubeTables{}) {
		return nil
	}
	return &t
}
