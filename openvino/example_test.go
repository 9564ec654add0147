package openvino_test

import (
	"fmt"

	"github.com/tensorpad/pad/openvino"
)

// The Pad-1 specification's example, in symmetric mode, on int8 elements.
func ExamplePad() {
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	out, shape, err := openvino.Pad(1, "symmetric", []int64{0, 1}, []int64{2, 3}, 1, []int{3, 4}, data, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for r := range shape[0] {
		fmt.Println(out[r*shape[1] : (r+1)*shape[1]])
	}
	// Output:
	// [1 1 2 3 4 4 3 2]
	// [5 5 6 7 8 8 7 6]
	// [9 9 10 11 12 12 11 10]
	// [9 9 10 11 12 12 11 10]
	// [5 5 6 7 8 8 7 6]
}

// Negative pads crop after the padding: edge [1..6] with begin 2, end -7.
func ExamplePad_negative() {
	out, shape, _ := openvino.Pad(12, "edge", []int64{2}, []int64{-7}, 1, []int{6}, []byte{1, 2, 3, 4, 5, 6}, nil)
	fmt.Println(out, shape)
	// Output: [1] [1]
}

// Reflect pads are limited to dim-1.
func ExampleSpec() {
	_, err := openvino.Spec(1, "reflect", []int64{0, 2}, []int64{0, 0}, []int{2, 2})
	fmt.Println(err)
	// Output: pad: invalid spec: pad exceeds the reflect/symmetric limit: axis 1 of length 2: reflect pads 2 and 0, at most 1
}
