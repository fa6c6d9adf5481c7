export { sourceAddress } from '@/lib/http/source-address';
