package ngraph_test

import (
	"fmt"

	"github.com/tensorpad/pad/ngraph"
)

// The nGraph specification's example: 3x3, interior (1,2), below (1,2),
// above (1,0), pad value 42, on uint8 elements.
func ExamplePad() {
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}
	out, shape, err := ngraph.Pad("CONSTANT", []int64{1, 2}, []int64{1, 0}, []int64{1, 2}, 1, []int{3, 3}, data, []byte{42})
	if err != nil {
		fmt.Println(err)
		return
	}
	for r := range shape[0] {
		fmt.Println(out[r*shape[1] : (r+1)*shape[1]])
	}
	// Output:
	// [42 42 42 42 42 42 42 42 42]
	// [42 42 1 42 42 2 42 42 3]
	// [42 42 42 42 42 42 42 42 42]
	// [42 42 4 42 42 5 42 42 6]
	// [42 42 42 42 42 42 42 42 42]
	// [42 42 7 42 42 8 42 42 9]
	// [42 42 42 42 42 42 42 42 42]
}

// Interior padding is constant-only.
func ExampleSpec() {
	_, err := ngraph.Spec("edge", []int64{0}, []int64{0}, []int64{1})
	fmt.Println(err)
	s, _ := ngraph.Spec("Reflect", []int64{-1}, []int64{2}, nil)
	fmt.Println(s.Mode, s.Before, s.After, s.Order)
	// Output:
	// pad: invalid spec: padding_interior[0] = 1 needs CONSTANT mode, not EDGE
	// reflect [-1] [2] pad-then-crop
}
