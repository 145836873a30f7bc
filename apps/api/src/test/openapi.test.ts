import { describe, expect, it } from 'vitest';
import { bodyShapes } from './openapi.js';

const names = (shapes: ReturnType<typeof bodyShapes>) =>
  shapes.map((fields) => fields.map((f) => `${f.name}${f.required ? '!' : ''}`));

describe('reading request bodies from the OpenAPI document', () => {
  const object = (props: string[], required: string[] = []) => ({
    type: 'object',
    properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])),
    required,
  });

  it('gives one shape per branch of a union, nested unions and oneOf included', () => {
    const schema = {
      anyOf: [object(['choice'], ['choice']), { oneOf: [object(['text']), object(['blank'])] }],
    };
    expect(names(bodyShapes(schema))).toEqual([['choice!'], ['text'], ['blank']]);
  });

  it('merges the parts of an intersection, branch by branch', () => {
    const schema = {
      allOf: [
        object(['phone_number'], ['phone_number']),
        { anyOf: [object(['otp']), object(['password'])] },
      ],
    };
    expect(names(bodyShapes(schema))).toEqual([
      ['phone_number!', 'otp'],
      ['phone_number!', 'password'],
    ]);
  });

  it('refuses a body it cannot read instead of testing it as taking no fields', () => {
    expect(() => bodyShapes({ type: 'array' })).toThrow(/cannot read/);
    expect(() => bodyShapes({ anyOf: [object(['a']), { type: 'string' }] })).toThrow(/cannot read/);
  });
});
