package crm

import (
	"net/url"
	"reflect"
	"strconv"
	"strings"
)

// encodeQuery turns a params struct whose fields carry `url:"name"` tags into query values.
// Nil pointers and empty slices are left out, so only what the caller set is sent.
func encodeQuery(params interface{}) url.Values {
	q := url.Values{}
	v := reflect.ValueOf(params)
	if !v.IsValid() || (v.Kind() == reflect.Ptr && v.IsNil()) {
		return q
	}
	v = reflect.Indirect(v)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name := strings.Split(t.Field(i).Tag.Get("url"), ",")[0]
		if name == "" || name == "-" {
			continue
		}
		field := v.Field(i)
		if field.Kind() == reflect.Ptr {
			if field.IsNil() {
				continue
			}
			field = field.Elem()
		}
		switch field.Kind() {
		case reflect.String:
			q.Set(name, field.String())
		case reflect.Int, reflect.Int64, reflect.Int32:
			q.Set(name, strconv.FormatInt(field.Int(), 10))
		case reflect.Float64, reflect.Float32:
			q.Set(name, strconv.FormatFloat(field.Float(), 'f', -1, 64))
		case reflect.Bool:
			q.Set(name, strconv.FormatBool(field.Bool()))
		case reflect.Slice:
			for j := 0; j < field.Len(); j++ {
				q.Add(name, field.Index(j).String())
			}
		}
	}
	return q
}
