import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImageField } from './image-field';
import { pick } from '../../../../test/events';

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function show(value: string | null = null) {
  const onChange = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ImageField label="Cover image" hint="Up to 5 MB." value={value} onChange={onChange} />
    </QueryClientProvider>,
  );
  const pickFile = (file: File) =>
    pick(screen.getByLabelText('Cover image'), { target: { files: [file] } });
  return { onChange, pick: pickFile };
}

describe('ImageField', () => {
  it('refuses a file that is not an image before sending anything', () => {
    const { pick, onChange } = show();
    pick(new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose a JPEG, PNG, WebP or GIF image.');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('refuses an image over 5 MB before sending anything', () => {
    const { pick } = show();
    const big = new File([new Uint8Array(6 * 1024 * 1024)], 'big.png', { type: 'image/png' });
    pick(big);
    expect(screen.getByRole('alert').textContent).toMatch(/at most 5\.0 MB/);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the current image with a way to remove it', () => {
    const { onChange } = show('/uploads/abc.webp');
    expect(screen.getByRole('img', { name: 'Cover image: current image' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove the cover image' }));
    expect(onChange).toHaveBeenCalledWith(null);
  });
});
